import { Injectable } from '@nestjs/common';
import { DataSource } from 'typeorm';
import type { CatalogLookup, CatalogMatch, CatalogSource } from '../catalog-lookup';
import { hasNonXmlCharacter } from '../inline-text';
import { normaliseKey, restore } from './catalog-key';

interface FoundRow {
  n: string;
  id: string;
  key: string;
  target: string;
  provenance: CatalogSource[];
}

/**
 * The catalog memory behind `TranslationMemory.lookup`: one query for all keys against the
 * active build. Of a key's candidates, the one whose key has the query's own case wins, then the
 * translation most packages agree on, then the first written (builds write in a stable order).
 */
@Injectable()
export class CatalogEntriesLookup implements CatalogLookup {
  constructor(private readonly dataSource: DataSource) {}

  async exact(source: string, target: string, keys: string[]): Promise<Array<CatalogMatch | undefined>> {
    // No entry holds a control character, and Postgres could not even be sent a NUL: such keys are not asked.
    const asked = keys.flatMap((key, index) => (hasNonXmlCharacter(key) ? [] : [{ index, normal: normaliseKey(key) }]));
    const answers: Array<CatalogMatch | undefined> = keys.map(() => undefined);
    if (asked.length === 0) return answers;
    const rows: FoundRow[] = await this.dataSource.query(
      `SELECT DISTINCT ON (q.n) q.n, e.id, e.key, e.target, e.provenance
       FROM unnest($3::bytea[], $4::text[]) WITH ORDINALITY AS q(hash, key, n)
       JOIN translation.catalog_entries e
         ON e.build_id = (SELECT id FROM translation.catalog_builds WHERE status = 'active')
        AND e.source_lang = $1 AND e.target_lang = $2 AND e.key_hash = q.hash
        -- A key without a lower-case letter (MOD, SUM: a spreadsheet's function names) answers its own case only.
        AND (e.key = q.key OR e.key ~ '[a-z]')
       ORDER BY q.n, (e.key = q.key) DESC, e.agreement DESC, e.id`,
      [source, target, asked.map(({ normal }) => normal.hash), asked.map(({ normal }) => normal.key)],
    );
    for (const row of rows) {
      const { index, normal: query } = asked[Number(row.n) - 1];
      answers[index] = { target: restore(row.target, query.form, normaliseKey(row.key).form, target), entryId: String(row.id), provenance: row.provenance };
    }
    return answers;
  }
}
