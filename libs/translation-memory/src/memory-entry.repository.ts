import { Injectable } from '@nestjs/common';
import { InjectRepository } from '@nestjs/typeorm';
import type { AccountMode } from '@platform/contracts';
import type { EntityManager, Repository } from 'typeorm';
import { containsPattern } from './contains-pattern';
import { MemoryEntry } from './memory-entry.entity';
import type { EntryRow } from './memory-entry-row';

/** Rows per INSERT of an import: one statement's JSON stays a few megabytes. */
const ROWS_PER_STATEMENT = 1_000;

/**
 * The threshold of the first pass of a fuzzy search (see `similar`). Of the two-pass schedules
 * measured (0.8/0.6/min, 0.7/min) on a million entries this one cost least.
 */
const FIRST_PASS_SIMILARITY = 0.7;

/** An entry found by a suggestion query, with its memory's name and how close its source is. */
export interface ScoredEntry {
  entry: MemoryEntry;
  memoryName: string;
  similarity: number;
  exact: boolean;
}

export interface EntryPageQuery {
  /** Entries after this id (the previous page's last). */
  after?: string;
  limit: number;
  /** Only entries whose source or translation contains this text, case-insensitively. */
  contains?: string;
}

const COLUMNS = `e.id, e.memory_id, e.source_lang, e.target_lang, e.source_text, e.target_text, e.source_codes, e.target_codes,
  e.source_key, e.source_hash, e.origin, e.provenance, e.usage_count, e.last_used_at, e.created_at, e.updated_at`;

/** What jsonb_to_recordset makes of an EntryRow sent as JSON. */
const ROW_RECORD = `r(source_lang text, target_lang text, source_text text, target_text text, source_codes jsonb, target_codes jsonb,
  source_key text, source_hash text, origin text, provenance jsonb)`;

/** The entries table. Exact lookups go through the unique index, fuzzy ones through the trigram index on the key. */
@Injectable()
export class MemoryEntryRepository {
  constructor(@InjectRepository(MemoryEntry) private readonly entries: Repository<MemoryEntry>) {}

  /**
   * Adds the rows to the memory; a row whose source (key, language pair) the memory holds already
   * replaces that entry's translation, origin and provenance. Of rows with the same source the
   * last wins. Returns how many entries are new and how many were replaced.
   */
  async upsert(manager: EntityManager, memoryId: string, rows: EntryRow[]): Promise<{ added: number; replaced: number }> {
    const unique = [...new Map(rows.map((row) => [`${row.sourceLang} ${row.targetLang} ${row.sourceHash}`, row])).values()];
    let added = 0;
    for (let start = 0; start < unique.length; start += ROWS_PER_STATEMENT) {
      const chunk = unique.slice(start, start + ROWS_PER_STATEMENT).map(asRecord);
      const result: { inserted: boolean }[] = await manager.query(
        `INSERT INTO translation.memory_entries AS e
           (memory_id, source_lang, target_lang, source_text, target_text, source_codes, target_codes, source_key, source_hash, origin, provenance)
         SELECT $1, r.source_lang, r.target_lang, r.source_text, r.target_text, r.source_codes, r.target_codes, r.source_key, r.source_hash, r.origin, r.provenance
         FROM jsonb_to_recordset($2::jsonb) AS ${ROW_RECORD}
         ON CONFLICT ON CONSTRAINT memory_entries_source_key DO UPDATE SET
           source_text = EXCLUDED.source_text, target_text = EXCLUDED.target_text, source_codes = EXCLUDED.source_codes,
           target_codes = EXCLUDED.target_codes, source_key = EXCLUDED.source_key, origin = EXCLUDED.origin,
           provenance = EXCLUDED.provenance, updated_at = now()
         RETURNING (xmax = 0) AS inserted`,
        [memoryId, JSON.stringify(chunk)],
      );
      added += result.filter((row) => row.inserted).length;
    }
    return { added, replaced: unique.length - added };
  }

  /** How many of the rows' sources the memory does not hold yet. */
  async countNew(manager: EntityManager, memoryId: string, rows: EntryRow[]): Promise<number> {
    const [{ known }] = await manager.query(
      `SELECT count(*)::int AS known FROM translation.memory_entries e
       JOIN jsonb_to_recordset($2::jsonb) AS ${ROW_RECORD} ON e.source_lang = r.source_lang AND e.target_lang = r.target_lang AND e.source_hash = r.source_hash
       WHERE e.memory_id = $1`,
      [memoryId, JSON.stringify(rows.map(asRecord))],
    );
    return new Set(rows.map((row) => `${row.sourceLang} ${row.targetLang} ${row.sourceHash}`)).size - known;
  }

  /** A page of the memory's entries in the order they were first added. */
  page(memoryId: string, { after, limit, contains }: EntryPageQuery): Promise<MemoryEntry[]> {
    const query = this.entries.createQueryBuilder('e').where('e.memory_id = :memoryId', { memoryId }).orderBy('e.id').limit(limit);
    if (after !== undefined) query.andWhere('e.id > :after', { after });
    if (contains) {
      // The trigram index on the key serves the regular expression; the translation is read only for the rows of this memory.
      query.andWhere('(e.source_key ~ :pattern OR e.target_text ~ :pattern)', { pattern: containsPattern(contains) });
    }
    return query.getMany();
  }

  get(memoryId: string, id: string, manager = this.entries.manager): Promise<MemoryEntry | null> {
    return /^\d{1,18}$/.test(id) ? manager.findOneBy(MemoryEntry, { memoryId, id }) : Promise.resolve(null);
  }

  /**
   * Rewrites an entry in place. Another entry of the memory with the new source gives way (the
   * latest translation wins, as on import); returns whether one did.
   */
  async rewrite(manager: EntityManager, entry: MemoryEntry, row: EntryRow): Promise<{ displaced: boolean }> {
    const [{ count }] = await manager.query(
      `WITH gone AS (DELETE FROM translation.memory_entries WHERE memory_id = $1 AND source_lang = $2 AND target_lang = $3 AND source_hash = $4 AND id <> $5 RETURNING 1)
       SELECT count(*)::int AS count FROM gone`,
      [entry.memoryId, row.sourceLang, row.targetLang, row.sourceHash, entry.id],
    );
    await manager.update(MemoryEntry, { id: entry.id }, row);
    return { displaced: count > 0 };
  }

  async delete(manager: EntityManager, memoryId: string, id: string): Promise<boolean> {
    if (!/^\d{1,18}$/.test(id)) return false;
    const { affected } = await manager.delete(MemoryEntry, { memoryId, id });
    return Boolean(affected);
  }

  /**
   * The entry for each source hash among the mode's memories (those of `memoryIds` only, when
   * given), by hash. Where several memories hold one, the first of `memoryIds` wins, else the
   * latest translation.
   */
  async exact(mode: AccountMode, memoryIds: string[] | undefined, source: string, target: string, hashes: string[]): Promise<Map<string, MemoryEntry>> {
    const rows: Record<string, unknown>[] = await this.entries.query(
      `SELECT DISTINCT ON (e.source_hash) ${COLUMNS}
       FROM translation.memory_entries e JOIN translation.memories m ON m.id = e.memory_id
       WHERE m.account_id = $1 AND m.sandbox = $2 AND ($3::uuid[] IS NULL OR m.id = ANY($3::uuid[]))
         AND e.source_lang = $4 AND e.target_lang = $5 AND e.source_hash = ANY($6::text[])
       ORDER BY e.source_hash, array_position($3::uuid[], m.id), e.updated_at DESC, e.id DESC`,
      [mode.accountId, mode.sandbox, memoryIds ?? null, source, target, hashes],
    );
    return new Map(rows.map((row) => [row.source_hash as string, this.entity(row)]));
  }

  /**
   * The mode's entries whose key is `key` (exact) or shares at least `minSimilarity` of its
   * trigrams (fuzzy, pg_trgm's `%` through the trigram index), exact ones first, then by
   * similarity; at most `limit`.
   *
   * The cost is the trigram index's candidates, each fetched from the table and rechecked: a
   * short query of common words has thousands at the default threshold. A pass at a higher
   * threshold first has a few dozen; when it fills the limit, its rows are the answer, since
   * every entry it could not see is less similar than all of them. Otherwise the pass at
   * `minSimilarity` runs as before.
   */
  similar(mode: AccountMode, query: { source: string; target: string; key: string; hash: string; limit: number; minSimilarity: number }): Promise<ScoredEntry[]> {
    const thresholds = query.minSimilarity < FIRST_PASS_SIMILARITY ? [FIRST_PASS_SIMILARITY, query.minSimilarity] : [query.minSimilarity];
    return this.entries.manager.transaction(async (manager) => {
      let rows: Record<string, unknown>[] = [];
      for (const threshold of thresholds) {
        // The threshold of `%`, for this transaction only: the index can apply it, which a comparison of similarity() could not.
        await manager.query(`SELECT set_config('pg_trgm.similarity_threshold', $1, true)`, [String(threshold)]);
        rows = await manager.query(
          `SELECT * FROM (
             SELECT ${COLUMNS}, m.name AS memory_name, 1::real AS similarity, true AS exact
             FROM translation.memory_entries e JOIN translation.memories m ON m.id = e.memory_id
             WHERE m.account_id = $1 AND m.sandbox = $2 AND e.source_lang = $3 AND e.target_lang = $4 AND e.source_hash = $6
             UNION ALL
             SELECT ${COLUMNS}, m.name AS memory_name, similarity(e.source_key, $5) AS similarity, false AS exact
             FROM translation.memory_entries e JOIN translation.memories m ON m.id = e.memory_id
             WHERE m.account_id = $1 AND m.sandbox = $2 AND e.source_lang = $3 AND e.target_lang = $4
               AND e.source_key % $5 AND e.source_hash <> $6
           ) found
           ORDER BY exact DESC, similarity DESC, updated_at DESC, id DESC
           LIMIT $7`,
          [mode.accountId, mode.sandbox, query.source, query.target, query.key, query.hash, query.limit],
        );
        if (rows.length >= query.limit) break;
      }
      return rows.map((row) => ({ entry: this.entity(row), memoryName: row.memory_name as string, similarity: Number(row.similarity), exact: row.exact as boolean }));
    });
  }

  /** Counts a use of the entry per time its id is given; called off the request's path. */
  async touch(ids: string[]): Promise<void> {
    await this.entries.query(
      `UPDATE translation.memory_entries e SET usage_count = e.usage_count + u.uses, last_used_at = now()
       FROM (SELECT id, count(*)::int AS uses FROM unnest($1::bigint[]) AS id GROUP BY id) u WHERE e.id = u.id`,
      [ids],
    );
  }

  /** Every entry of the memory, a page at a time, in id order. */
  async *all(memoryId: string, pageSize: number): AsyncGenerator<MemoryEntry[]> {
    for (let after: string | undefined; ; ) {
      const page = await this.page(memoryId, { after, limit: pageSize });
      if (page.length > 0) yield page;
      if (page.length < pageSize) return;
      after = page.at(-1)!.id;
    }
  }

  private entity(row: Record<string, unknown>): MemoryEntry {
    return this.entries.create({
      id: String(row.id),
      memoryId: row.memory_id as string,
      sourceLang: row.source_lang as string,
      targetLang: row.target_lang as string,
      sourceText: row.source_text as string,
      targetText: row.target_text as string,
      sourceCodes: row.source_codes as MemoryEntry['sourceCodes'],
      targetCodes: row.target_codes as MemoryEntry['targetCodes'],
      sourceKey: row.source_key as string,
      sourceHash: row.source_hash as string,
      origin: row.origin as MemoryEntry['origin'],
      provenance: row.provenance as MemoryEntry['provenance'],
      usageCount: row.usage_count as number,
      lastUsedAt: row.last_used_at as Date | null,
      createdAt: row.created_at as Date,
      updatedAt: row.updated_at as Date,
    });
  }
}

function asRecord(row: EntryRow) {
  return {
    source_lang: row.sourceLang,
    target_lang: row.targetLang,
    source_text: row.sourceText,
    target_text: row.targetText,
    source_codes: row.sourceCodes,
    target_codes: row.targetCodes,
    source_key: row.sourceKey,
    source_hash: row.sourceHash,
    origin: row.origin,
    provenance: row.provenance,
  };
}
