import { ApiError } from '@platform/errors';
import { createHash } from 'node:crypto';
import { hasNonXmlCharacter, maskPair, tokensOfPlainText, type InlineCodes, type InlineToken } from './inline-text';
import type { MemoryOrigin, MemoryProvenance } from './memory-entry.entity';
import { memoryKey } from './memory-key';
import { MAX_SEGMENT_LENGTH } from './memory-limits';

/** A source segment and its translation as read from a file, a request or a reviewer's verdict. */
export interface EntryDraft {
  sourceLang: string;
  targetLang: string;
  source: InlineToken[];
  target: InlineToken[];
}

/** What an entry's row holds but its id, counts and dates. */
export interface EntryRow {
  sourceLang: string;
  targetLang: string;
  sourceText: string;
  targetText: string;
  sourceCodes: InlineCodes;
  targetCodes: InlineCodes;
  sourceKey: string;
  sourceHash: string;
  origin: MemoryOrigin;
  provenance: MemoryProvenance;
}

/** SHA-256 (hex) of a memory key: what exact lookups compare. */
export function sourceHash(key: string): string {
  return createHash('sha256').update(key, 'utf8').digest('hex');
}

/** 422 for a search for text no entry can hold (and Postgres could not even compare, for NUL). */
export const unsearchable = (parameter: string) =>
  ApiError.invalidParameter(`${parameter} holds a control character or a broken surrogate pair, which no memory entry holds`);

function problemOf(what: string, text: string, codes: InlineCodes): string | undefined {
  if (!text) return `the ${what} is empty`;
  if (text.length > MAX_SEGMENT_LENGTH) return `the ${what} is longer than ${MAX_SEGMENT_LENGTH} characters`;
  if (hasNonXmlCharacter(text + Object.values(codes).flat().join(''))) return `the ${what} holds a control character or a broken surrogate pair, which no memory file can carry`;
  return undefined;
}

/**
 * A side without inline codes (a TMX or XLIFF segment written as plain text, `Delete {count}
 * files`) is plain text, read as the pipeline reads it, so that its variables and markup are
 * codes there too; a side with codes keeps the file's.
 */
function asThePipelineReads(tokens: InlineToken[]): InlineToken[] {
  return tokens.every((token) => token.kind === 'text') ? tokensOfPlainText(tokens.map((token) => token.text).join('')) : tokens;
}

/**
 * The stored form of a draft, or what keeps it from being stored: an empty or overlong side,
 * a character no TMX file could carry, or a translation into the source language. Text is
 * trimmed and in Unicode NFC.
 */
export function entryRow(draft: EntryDraft, origin: MemoryOrigin, provenance: MemoryProvenance): EntryRow | { problem: string } {
  if (draft.sourceLang === draft.targetLang) return { problem: `the translation is into the source language "${draft.sourceLang}"` };
  const { source, target } = maskPair(asThePipelineReads(draft.source), asThePipelineReads(draft.target));
  const sourceText = source.text.normalize('NFC').trim();
  const targetText = target.text.normalize('NFC').trim();
  const problem = problemOf('source', sourceText, source.codes) ?? problemOf('translation', targetText, target.codes);
  if (problem) return { problem };
  const sourceKey = memoryKey(sourceText);
  return {
    sourceLang: draft.sourceLang,
    targetLang: draft.targetLang,
    sourceText,
    targetText,
    sourceCodes: source.codes,
    targetCodes: target.codes,
    sourceKey,
    sourceHash: sourceHash(sourceKey),
    origin,
    provenance,
  };
}
