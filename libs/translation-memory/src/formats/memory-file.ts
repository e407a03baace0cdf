import { isEuLanguage } from '@platform/contracts';
import type { InlineToken } from '../inline-text';
import type { EntryDraft } from '../memory-entry-row';

export const MEMORY_FILE_FORMATS = ['tmx', 'xliff', 'po'] as const;
export type MemoryFileFormat = (typeof MEMORY_FILE_FORMATS)[number];

/** Why a unit of a file was left out on purpose (not an error: the rest is imported). */
export type SkipReason = 'language' | 'no_source' | 'untranslated' | 'fuzzy' | 'plural';

/** A source and translation read from a file; `at` says where, for messages ("line 12", `msgid "Save"`). */
export interface ImportedUnit extends EntryDraft {
  at: string;
}

/** What a reader makes of a whole file. */
export interface MemoryFile {
  format: MemoryFileFormat;
  units: ImportedUnit[];
  skipped: Partial<Record<SkipReason, number>>;
  /** The tool that wrote the file, when it says. */
  tool?: string;
}

/** What a reader needs beyond the file: the memory's own source language, or the caller's. */
export interface ReadOptions {
  source?: string;
  target?: string;
}

/** The official EU language a language tag (`de`, `de-AT`, `PT_br`) is in, if any. */
export function languageOf(tag: string | null | undefined): string | undefined {
  const primary = tag?.split(/[-_]/)[0].toLowerCase();
  return isEuLanguage(primary) ? primary : undefined;
}

/** Counts one more unit left out for `reason`. */
export function skip(file: MemoryFile, reason: SkipReason): void {
  file.skipped[reason] = (file.skipped[reason] ?? 0) + 1;
}

/** No text but whitespace and no code: an empty translation. */
export function isBlank(tokens: InlineToken[]): boolean {
  return tokens.every((token) => token.kind === 'text' && token.text.trim() === '');
}

/** Units (or bytes, for parsers) handled between two breaths. */
export const UNITS_PER_SLICE = 500;
export const BYTES_PER_SLICE = 256 * 1024;

/**
 * Lets other requests on this process run. A file of 20 MiB takes seconds to read; read in one
 * go it would hold up every other request (health probes included) for that long.
 */
export const breathe = () => new Promise<void>((resolve) => setImmediate(resolve));
