import { Inject, Injectable, Logger, Optional } from '@nestjs/common';
import type { AccountMode } from '@platform/contracts';
import { ApiError } from '@platform/errors';
import { isUUID } from 'class-validator';
import { maskedText, type PreparedSentence, type StoredTranslation } from '@platform/translation-pipeline';
import type { EntityManager } from 'typeorm';
import { CATALOG_LOOKUP, type CatalogLookup, type CatalogSource } from './catalog-lookup';
import { hasNonXmlCharacter, readable, tokensOfSentence } from './inline-text';
import type { MemoryEntry, MemoryOrigin, MemoryProvenance } from './memory-entry.entity';
import { MemoryEntryRepository } from './memory-entry.repository';
import { entryRow, sourceHash, unsearchable } from './memory-entry-row';
import { canonicalIds, memoryKey, withIds } from './memory-key';
import { DEFAULT_MIN_SIMILARITY, DEFAULT_SUGGESTIONS, MAX_ENTRIES_PER_MEMORY, MAX_SEGMENT_LENGTH } from './memory-limits';
import { MemoryRepository, modeOf } from './memory.repository';
import { reviewedPairs } from './reviewed-pairs';
import type { ReviewedFormat } from './reviewed-segments';

export interface LookupRequest extends AccountMode {
  /** Only these memories of the account and mode, the first listed winning; all of them when absent. Other ids are ignored. */
  memoryIds?: string[];
  source: string;
  target: string;
  /** Masked segments (the engine form: `<x id="N"/>`, `<g id="N">…</g>`), ids numbered as the caller likes. */
  segments: string[];
  /** Per segment: whether the catalog may answer it (a whole short text). */
  catalog: boolean[];
  /** False: the catalog alone, the account's memories are not read (it has none). Default true. */
  memories?: boolean;
}

/** A translate request's memory options. */
export interface MemoryOptions {
  /** False: neither the account's memories nor the catalog; default true. */
  memory?: boolean;
  /** Only these of the account's memories (ids, the first listed winning). */
  memories?: string[];
}

/** What the pipeline asks for a prepared request (see `translationsFor`). */
export interface SentencesRequest {
  target: string;
  sentences: readonly PreparedSentence[];
  /** Whether the account has a memory in the mode; false skips them. */
  memories: boolean;
  /** Only these memories, the first listed winning; all of the mode's when absent. */
  memoryIds?: string[];
}

/** A stored translation of a segment. */
export interface LookupMatch {
  /** Masked, with the ids of the segment it answers. */
  target: string;
  origin: 'memory' | 'catalog';
  entryId: string;
  provenance: MemoryProvenance | CatalogSource[];
}

export interface SuggestionRequest extends AccountMode {
  source: string;
  target: string;
  /** Plain text, as a person types it or a reviewer sees it; masked here like any plain text. */
  q: string;
  limit?: number;
  /** Trigram similarity (0..1) a fuzzy suggestion needs at least. */
  minSimilarity?: number;
}

/** A memory entry close to the text asked about. */
export interface Suggestion {
  entryId: string;
  memory: { id: string; name: string };
  /** Readable copies (codes as in the original) and the masked forms. */
  source: string;
  target: string;
  sourceMasked: string;
  targetMasked: string;
  match: 'exact' | 'fuzzy';
  /** Trigram similarity of the keys, 0..1; 1 for an exact match. */
  similarity: number;
  origin: MemoryOrigin;
  provenance: MemoryProvenance;
  usageCount: number;
  updatedAt: Date;
}

/** A reviewer's verdict on a text of a review-tier job. */
export interface ReviewedText {
  /** The text's source language (given or detected); null when unknown, and then nothing is learned. */
  source: string | null;
  target: string;
  format: ReviewedFormat;
  sourceText: string;
  /** The translation as it stands after the verdict: the edit, or the machine translation approved. */
  translation: string;
  origin: Extract<MemoryOrigin, 'reviewer_edit' | 'reviewer_approval'>;
  /** The job, and the reviewer (null for the sandbox's simulated approval). */
  provenance: { job: string; reviewer: string | null };
}

/**
 * The memory as the rest of the platform uses it: exact lookups for the pipeline, ranked
 * suggestions for people, and learning from reviewers' verdicts.
 */
@Injectable()
export class TranslationMemory {
  private readonly logger = new Logger(TranslationMemory.name);

  constructor(
    private readonly memories: MemoryRepository,
    private readonly entries: MemoryEntryRepository,
    @Optional() @Inject(CATALOG_LOOKUP) private readonly catalog?: CatalogLookup,
  ) {}

  /**
   * Exact translations of masked segments: the account's memories first (one query), then the
   * catalog for the segments still open that it may answer (one more). One item per segment, in
   * order; undefined where neither has one, or where the stored translation has a code the
   * segment lacks. Each use is counted after the answer, off its path.
   */
  async lookup(request: LookupRequest): Promise<Array<LookupMatch | undefined>> {
    if (request.segments.length === 0) return [];
    const keys = request.segments.map((segment) => memoryKey(segment));
    const ids = request.segments.map((segment) => canonicalIds(segment).ids);
    const hashes = keys.map(sourceHash);
    const memoryIds = request.memoryIds?.filter((id) => isUUID(id));
    const found = request.memories === false ? new Map<string, MemoryEntry>() : await this.entries.exact(request, memoryIds, request.source, request.target, [...new Set(hashes)]);

    const used: string[] = [];
    const matches = hashes.map((hash, index): LookupMatch | undefined => {
      const entry = found.get(hash);
      const target = entry && withIds(entry.targetText, ids[index]);
      if (!entry || target === undefined) return undefined;
      used.push(entry.id);
      return { target, origin: 'memory', entryId: entry.id, provenance: entry.provenance };
    });
    if (used.length > 0) this.countUses(used);

    const open = matches.flatMap((match, index) => (match === undefined && request.catalog[index] ? [index] : []));
    if (!this.catalog || open.length === 0) return matches;
    const answers = await this.catalog.exact(request.source, request.target, open.map((index) => keys[index]));
    open.forEach((index, n) => {
      const answer = answers[n];
      const target = answer && withIds(answer.target, ids[index]);
      if (answer && target !== undefined) matches[index] = { target, origin: 'catalog', entryId: answer.entryId, provenance: answer.provenance };
    });
    return matches;
  }

  /**
   * Stored translations of a prepared request's sentences, one per sentence (undefined where
   * there is none): `lookup` once per source language among them (nearly always one), in
   * parallel. Nothing is asked at all when nothing could answer: no memory in the mode and no
   * catalog, or no catalog and no sentence it may answer.
   */
  async translationsFor(mode: AccountMode, request: SentencesRequest): Promise<Array<StoredTranslation | undefined>> {
    const { sentences } = request;
    const catalog = this.catalog !== undefined && sentences.some((sentence) => sentence.whole);
    if (!request.memories && !catalog) return [];
    const bySource = new Map<string, number[]>();
    sentences.forEach((sentence, index) => bySource.set(sentence.source, [...(bySource.get(sentence.source) ?? []), index]));
    const answers: Array<StoredTranslation | undefined> = sentences.map(() => undefined);
    await Promise.all(
      [...bySource].map(async ([source, indexes]) => {
        const found = await this.lookup({
          ...modeOf(mode),
          memoryIds: request.memoryIds,
          memories: request.memories,
          source,
          target: request.target,
          segments: indexes.map((index) => sentences[index].masked),
          catalog: indexes.map((index) => sentences[index].whole),
        });
        found.forEach((match, n) => {
          if (match) answers[indexes[n]] = { target: match.target, origin: match.origin };
        });
      }),
    );
    return answers;
  }

  /**
   * What a request's options let memories answer: nothing (undefined) with `memory: false`; the
   * memories it names, each of which must be the mode's (404 otherwise); else all of the mode's,
   * or the catalog alone for an account that has none.
   */
  async use(key: AccountMode & { hasMemories?: boolean }, options: MemoryOptions): Promise<Pick<SentencesRequest, 'memories' | 'memoryIds'> | undefined> {
    if (options.memory === false) {
      if (options.memories !== undefined) throw ApiError.invalidParameter('memories names memories to use, but memory is false: send one or the other');
      return undefined;
    }
    if (options.memories === undefined) return { memories: key.hasMemories !== false };
    const known = new Set((await this.memories.list(key)).map((memory) => memory.id));
    const unknown = options.memories.find((id) => !known.has(id));
    if (unknown !== undefined) throw ApiError.notFound(`Memory ${unknown} not found`);
    return { memories: true, memoryIds: options.memories };
  }

  /** Entries of the account's memories in the mode for `q`: the exact one first, then fuzzy ones by trigram similarity. */
  async suggestions(request: SuggestionRequest): Promise<Suggestion[]> {
    if (hasNonXmlCharacter(request.q)) throw unsearchable('q');
    const key = memoryKey(maskedText(request.q).text);
    if (key === '') return [];
    const found = await this.entries.similar(request, {
      source: request.source,
      target: request.target,
      key,
      hash: sourceHash(key),
      limit: request.limit ?? DEFAULT_SUGGESTIONS,
      minSimilarity: request.minSimilarity ?? DEFAULT_MIN_SIMILARITY,
    });
    return found.map(({ entry, memoryName, similarity, exact }) => ({
      entryId: entry.id,
      memory: { id: entry.memoryId, name: memoryName },
      source: readable({ text: entry.sourceText, codes: entry.sourceCodes }),
      target: readable({ text: entry.targetText, codes: entry.targetCodes }),
      sourceMasked: entry.sourceText,
      targetMasked: entry.targetText,
      match: exact ? 'exact' : 'fuzzy',
      similarity,
      origin: entry.origin,
      provenance: entry.provenance,
      usageCount: entry.usageCount,
      updatedAt: entry.updatedAt,
    }));
  }

  /**
   * Suggestions for several texts of one language pair (the segments of a reviewer's task), one
   * list per text in order. A text no entry could hold (longer than an entry's segment, or with
   * a character XML cannot carry) gets none rather than an error: it is not the caller's input.
   */
  async suggestionsFor(request: Omit<SuggestionRequest, 'q'> & { texts: string[] }): Promise<Suggestion[][]> {
    const found: Suggestion[][] = [];
    // One after the other: a task's segments need not hold several of the pool's connections.
    for (const q of request.texts) found.push(q.length > MAX_SEGMENT_LENGTH || hasNonXmlCharacter(q) ? [] : await this.suggestions({ ...request, q }));
    return found;
  }

  /**
   * Adds what reviewed texts of a job teach (see `reviewedPairs`) to the `default` memory of the
   * job's account and mode, in the caller's transaction, so verdicts and what they teach commit
   * together. A memory that would go over its limit learns nothing more (the verdicts stand all
   * the same). Returns the number of entries written.
   */
  async learn(manager: EntityManager, mode: AccountMode, texts: ReviewedText[]): Promise<number> {
    const rows = texts.flatMap((text) => {
      const { source, target } = text;
      if (!source || source === target) return [];
      return reviewedPairs(text.format, text.sourceText, text.translation).flatMap((pair) => {
        const row = entryRow({ sourceLang: source, targetLang: target, source: tokensOfSentence(pair.source), target: tokensOfSentence(pair.target) }, text.origin, text.provenance);
        return 'problem' in row ? [] : [row];
      });
    });
    if (rows.length === 0) return 0;
    const { id } = await this.memories.ensureDefault(manager, mode);
    const memory = (await this.memories.lock(manager, mode, id))!;
    if (memory.entryCount + (await this.entries.countNew(manager, memory.id, rows)) > MAX_ENTRIES_PER_MEMORY) {
      this.logger.warn(`Memory ${memory.id} is full: verdicts of job ${texts[0].provenance.job} were not learned`);
      return 0;
    }
    const { added, replaced } = await this.entries.upsert(manager, memory.id, rows);
    await this.memories.changed(manager, memory.id, added);
    return added + replaced;
  }

  private countUses(ids: string[]): void {
    setImmediate(() => {
      this.entries.touch(ids).catch((error: unknown) => this.logger.warn(`Memory entries' uses were not counted: ${(error as Error).message}`));
    });
  }
}
