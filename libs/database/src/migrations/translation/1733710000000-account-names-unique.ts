import { MigrationInterface, QueryRunner } from 'typeorm';
import type { DeclaresRevertLoss } from '../../migration-runner';

/** An account name as people read it: compatibility forms and letter widths folded (NFKC), surrounding spaces dropped, case ignored. */
const NAME_KEY = `lower(btrim(normalize(name, NFKC)))`;

/**
 * Account names are unique as people read them, so that an operator who names an account at a
 * terminal cannot reach another one that only looks the same (`Acme`, ` ACME `, `ａｃｍｅ`).
 * Names that collide already: the oldest account (by creation time, then id) keeps its name, and
 * every later one gets its id appended, `Acme (3f2a...)`, which is unique and says which account
 * it is. Stored names lose their surrounding spaces, as new names are stored.
 */
export class AccountNamesUnique1733710000000 implements MigrationInterface, DeclaresRevertLoss {
  name = 'AccountNamesUnique1733710000000';
  // A revert keeps the names as they are now; only the comparison goes back to exact.
  readonly revertDestroys = [];

  async up(q: QueryRunner): Promise<void> {
    await q.query(`ALTER TABLE translation.accounts DROP CONSTRAINT accounts_name_key`);
    await q.query(`UPDATE translation.accounts a SET name = btrim(a.name) || ' (' || a.id || ')'
      FROM (SELECT id, row_number() OVER (PARTITION BY ${NAME_KEY} ORDER BY created_at, id) AS rank FROM translation.accounts) ranked
      WHERE ranked.id = a.id AND ranked.rank > 1`);
    await q.query(`UPDATE translation.accounts SET name = btrim(name) WHERE name <> btrim(name)`);
    await q.query(`CREATE UNIQUE INDEX accounts_name_key_idx ON translation.accounts ((${NAME_KEY}))`);
  }

  async down(q: QueryRunner): Promise<void> {
    await q.query(`DROP INDEX translation.accounts_name_key_idx`);
    await q.query(`ALTER TABLE translation.accounts ADD CONSTRAINT accounts_name_key UNIQUE (name)`);
  }
}
