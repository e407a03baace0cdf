import { MigrationInterface, QueryRunner } from 'typeorm';
import type { DeclaresRevertLoss } from '../../migration-runner';

/** The key of AccountNamesUnique1733710000000: its lower() folds only what the database's LC_CTYPE knows (ASCII under `C`). */
const PREVIOUS_KEY = `lower(btrim(normalize(name, NFKC)))`;
/** Case folded by ICU's root locale, whatever locale the database was created with. */
const NAME_KEY = `lower(btrim(normalize(name, NFKC)) COLLATE "und-x-icu")`;

/**
 * Account names compared ignoring the case of every letter, not only ASCII's: on a database
 * initialised with `--locale=C`, as many are, `ÉCOLE` and `école` were two names. Needs a
 * Postgres built with ICU (Debian's and the official images are). Names that collide now: the
 * oldest account keeps its name and every later one gets its id appended, as the first
 * migration of the key did.
 */
export class AccountNamesFoldEveryLetter1734440000000 implements MigrationInterface, DeclaresRevertLoss {
  name = 'AccountNamesFoldEveryLetter1734440000000';
  // A revert keeps the names as they are now; only the comparison goes back.
  readonly revertDestroys = [];

  async up(q: QueryRunner): Promise<void> {
    await q.query(`UPDATE translation.accounts a SET name = a.name || ' (' || a.id || ')'
      FROM (SELECT id, row_number() OVER (PARTITION BY ${NAME_KEY} ORDER BY created_at, id) AS rank FROM translation.accounts) ranked
      WHERE ranked.id = a.id AND ranked.rank > 1`);
    await this.keyIndex(q, NAME_KEY);
  }

  async down(q: QueryRunner): Promise<void> {
    await this.keyIndex(q, PREVIOUS_KEY);
  }

  private async keyIndex(q: QueryRunner, key: string): Promise<void> {
    await q.query(`DROP INDEX translation.accounts_name_key_idx`);
    await q.query(`CREATE UNIQUE INDEX accounts_name_key_idx ON translation.accounts ((${key}))`);
  }
}
