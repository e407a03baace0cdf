import { Injectable } from '@nestjs/common';
import type { AccountMode } from '@platform/contracts';
import { ApiError } from '@platform/errors';
import type { EntityManager } from 'typeorm';
import { breathe, UNITS_PER_SLICE, type MemoryFileFormat, type SkipReason } from './formats/memory-file';
import { readMemoryFile } from './formats/read-memory-file';
import { tmxDocument } from './formats/tmx-writer';
import { hasNonXmlCharacter, tokensOfMasked, tokensOfPlainText } from './inline-text';
import type { MemoryEntry, MemoryOrigin, MemoryProvenance } from './memory-entry.entity';
import { MemoryEntryRepository, type EntryPageQuery } from './memory-entry.repository';
import { entryRow, unsearchable, type EntryDraft, type EntryRow } from './memory-entry-row';
import { MAX_ENTRIES_PER_MEMORY, MAX_MEMORIES_PER_ACCOUNT } from './memory-limits';
import { DEFAULT_MEMORY_NAME, type Memory } from './memory.entity';
import { MemoryRepository } from './memory.repository';

/** Entries per query of an export. */
const EXPORT_PAGE = 2_000;

export interface MemoryDraft {
  name: string;
  source?: string | null;
}

/** A source and translation as a person writes them: plain text, variables and markup included. */
export interface EntryInput {
  sourceLang: string;
  targetLang: string;
  source: string;
  target: string;
}

export interface ImportSummary {
  /** Entries the memory did not hold before. */
  added: number;
  /** Entries whose source the memory held: their translation was replaced. */
  replaced: number;
  /** Units of the file left out on purpose, by reason. */
  skipped: Partial<Record<SkipReason, number>>;
}

const isDefault = (memory: Memory) => memory.name === DEFAULT_MEMORY_NAME;
const notFound = (id: string) => ApiError.notFound(`Memory ${id} not found`);
const entryNotFound = (id: string) => ApiError.notFound(`Memory entry ${id} not found`);
const tooMany = (count: number) => ApiError.payloadTooLarge(`The memory would hold ${count} entries; a memory holds at most ${MAX_ENTRIES_PER_MEMORY}`);

/**
 * Memories of an account, each in one mode (sandbox or live), as customers manage them: every
 * method takes the caller's mode and sees only that world, so the other mode's ids are unknown
 * (404). Writes of entries to one memory take turns (the memory's row is locked), so its limit
 * holds under concurrent imports; an import is one transaction, all of it or nothing.
 */
@Injectable()
export class MemoryService {
  constructor(
    private readonly memories: MemoryRepository,
    private readonly entries: MemoryEntryRepository,
  ) {}

  /** The `default` memory first (made here if the mode has none yet, so it is always listed), then the others oldest first. */
  async list(mode: AccountMode): Promise<Memory[]> {
    let memories = await this.memories.list(mode);
    if (!memories.some(isDefault)) {
      await this.memories.transaction((manager) => this.memories.ensureDefault(manager, mode));
      memories = await this.memories.list(mode);
    }
    return [...memories.filter(isDefault), ...memories.filter((memory) => !isDefault(memory))];
  }

  async get(mode: AccountMode, id: string): Promise<Memory> {
    const memory = await this.memories.find(mode, id);
    if (!memory) throw notFound(id);
    return memory;
  }

  /** Each mode of an account holds up to MAX_MEMORIES_PER_ACCOUNT memories, `default` included. */
  create(mode: AccountMode, draft: MemoryDraft): Promise<Memory> {
    return this.memories.transaction(async (manager) => {
      await this.memories.lockAccount(manager, mode.accountId);
      await this.memories.ensureDefault(manager, mode);
      if (hasNonXmlCharacter(draft.name)) throw ApiError.invalidParameter('The name holds a control character or a broken surrogate pair');
      if (draft.name === DEFAULT_MEMORY_NAME) throw ApiError.invalidParameter(`The name "${DEFAULT_MEMORY_NAME}" belongs to the memory reviewers' verdicts go to; choose another`);
      if ((await this.memories.count(manager, mode)) >= MAX_MEMORIES_PER_ACCOUNT) {
        const world = mode.sandbox ? 'sandbox' : 'live';
        throw ApiError.invalidParameter(`An account holds at most ${MAX_MEMORIES_PER_ACCOUNT} ${world} memories, the default one included; delete one before creating another`);
      }
      return this.memories.create(manager, mode, { name: draft.name, source: draft.source ?? null });
    });
  }

  /** The memory and all its entries go in one statement. */
  async delete(mode: AccountMode, id: string): Promise<void> {
    if (!(await this.memories.delete(mode, id))) throw notFound(id);
  }

  /** Reads a whole file first (422 naming the line or element on any error), then writes all its entries in one transaction. */
  async import(mode: AccountMode, id: string, format: MemoryFileFormat, bytes: Uint8Array, options: { source?: string; target?: string }): Promise<ImportSummary> {
    const memory = await this.get(mode, id);
    if (memory.source && options.source && options.source !== memory.source) {
      throw ApiError.invalidParameter(`This memory holds sources in "${memory.source}"; source "${options.source}" does not fit it`);
    }
    const file = await readMemoryFile(format, bytes, { source: memory.source ?? options.source, target: options.target });
    const provenance: MemoryProvenance = { format, tool: file.tool ?? null };
    const rows: EntryRow[] = [];
    for (const [index, unit] of file.units.entries()) {
      if (index % UNITS_PER_SLICE === 0) await breathe();
      rows.push(this.checked(unit, memory, 'import', provenance, unit.at));
    }
    // Refused before any work in Postgres when the file alone holds too many sources.
    const sources = new Set(rows.map((row) => `${row.sourceLang} ${row.targetLang} ${row.sourceHash}`)).size;
    if (sources > MAX_ENTRIES_PER_MEMORY) throw tooMany(sources);
    const written = await this.write(mode, id, async (manager) => this.entries.upsert(manager, id, rows));
    return { ...written, skipped: file.skipped };
  }

  /** The memory as TMX, produced page by page as it is sent. */
  async export(mode: AccountMode, id: string): Promise<{ memory: Memory; tmx: AsyncGenerator<string> }> {
    const memory = await this.get(mode, id);
    return { memory, tmx: tmxDocument(memory, this.entries.all(memory.id, EXPORT_PAGE)) };
  }

  async entryPage(mode: AccountMode, id: string, query: EntryPageQuery): Promise<MemoryEntry[]> {
    await this.get(mode, id);
    if (query.contains && hasNonXmlCharacter(query.contains)) throw unsearchable('q');
    return this.entries.page(id, query);
  }

  async entry(mode: AccountMode, id: string, entryId: string): Promise<MemoryEntry> {
    await this.get(mode, id);
    const entry = await this.entries.get(id, entryId);
    if (!entry) throw entryNotFound(entryId);
    return entry;
  }

  /** Adds a translation, or replaces the memory's translation of the same source. */
  async addEntry(mode: AccountMode, id: string, input: EntryInput, provenance: MemoryProvenance): Promise<MemoryEntry> {
    const memory = await this.get(mode, id);
    const row = this.checked({ ...input, source: tokensOfPlainText(input.source), target: tokensOfPlainText(input.target) }, memory, 'api', provenance);
    await this.write(mode, id, (manager) => this.entries.upsert(manager, id, [row]));
    return (await this.entries.exact(mode, [id], row.sourceLang, row.targetLang, [row.sourceHash])).get(row.sourceHash)!;
  }

  /**
   * Changes an entry's source or translation (plain text; the side not given stays, its codes
   * included). An entry of the memory that already had the new source gives way.
   */
  async editEntry(mode: AccountMode, id: string, entryId: string, change: { source?: string; target?: string }, provenance: MemoryProvenance): Promise<MemoryEntry> {
    if (change.source === undefined && change.target === undefined) throw ApiError.invalidParameter('Give the entry a new source, a new target or both');
    const memory = await this.get(mode, id);
    await this.write(mode, id, async (manager) => {
      const entry = await this.entries.get(id, entryId, manager);
      if (!entry) throw entryNotFound(entryId);
      const draft: EntryDraft = {
        sourceLang: entry.sourceLang,
        targetLang: entry.targetLang,
        source: change.source === undefined ? tokensOfMasked({ text: entry.sourceText, codes: entry.sourceCodes }) : tokensOfPlainText(change.source),
        target: change.target === undefined ? tokensOfMasked({ text: entry.targetText, codes: entry.targetCodes }) : tokensOfPlainText(change.target),
      };
      const { displaced } = await this.entries.rewrite(manager, entry, this.checked(draft, memory, 'api', provenance));
      return { added: displaced ? -1 : 0 };
    });
    return this.entry(mode, id, entryId);
  }

  async deleteEntry(mode: AccountMode, id: string, entryId: string): Promise<void> {
    await this.write(mode, id, async (manager) => {
      if (!(await this.entries.delete(manager, id, entryId))) throw entryNotFound(entryId);
      return { added: -1 };
    });
  }

  /** The stored form of a draft, or 422 saying what is wrong with it (and where, for a file). */
  private checked(draft: EntryDraft, memory: Memory, origin: MemoryOrigin, provenance: MemoryProvenance, at?: string): EntryRow {
    const where = at ? `${at}: ` : '';
    if (memory.source && draft.sourceLang !== memory.source) {
      throw ApiError.invalidParameter(`${where}the source is in "${draft.sourceLang}", and this memory holds sources in "${memory.source}"`);
    }
    const row = entryRow(draft, origin, provenance);
    if ('problem' in row) throw ApiError.invalidParameter(`${where}${row.problem}`);
    return row;
  }

  /**
   * Runs a change of the memory's entries with the memory locked; `added` entries (negative:
   * removed) are counted, and a change that would take the memory over its limit is undone whole.
   */
  private write<T extends { added: number }>(mode: AccountMode, id: string, change: (manager: EntityManager) => Promise<T>): Promise<T> {
    return this.memories.transaction(async (manager) => {
      const memory = await this.memories.lock(manager, mode, id);
      if (!memory) throw notFound(id);
      const result = await change(manager);
      if (memory.entryCount + result.added > MAX_ENTRIES_PER_MEMORY) throw tooMany(memory.entryCount + result.added);
      await this.memories.changed(manager, id, result.added);
      return result;
    });
  }
}
