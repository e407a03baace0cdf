import { maskedSentences, type MaskedText } from '@platform/translation-pipeline';
import { memoryKey } from './memory-key';
import type { ReviewedFormat } from './reviewed-segments';

/**
 * The source sentences and their final translations a reviewed text teaches, in the masked form
 * the pipeline looks sentences up in (`maskedSentences`: one sentence per line, an ICU message's
 * messages apart), so that the next request of the same sentence finds them.
 *
 * - `text`: sentence by sentence when source and translation have as many; nothing otherwise,
 *   as a pairing that could be off by one would teach wrong translations.
 * - `json`: each string value with the string at the same path of the translation, read like a
 *   `text`, when both documents have the same structure; nothing otherwise. Values under keys
 *   starting with `@` (locale metadata, never translated) are left out.
 * - `html`: nothing; its sentences are cut out of markup that a plain pairing would get wrong.
 *
 * A sentence left as it was teaches nothing and is left out.
 */
export function reviewedPairs(format: ReviewedFormat, source: string, translation: string): { source: MaskedText; target: MaskedText }[] {
  if (format === 'text') return sentencePairs(source, translation);
  if (format !== 'json') return [];
  let sourceDocument: unknown;
  let translatedDocument: unknown;
  try {
    sourceDocument = JSON.parse(source);
    translatedDocument = JSON.parse(translation);
  } catch {
    return [];
  }
  const strings: [string, string][] = [];
  return alignedStrings(sourceDocument, translatedDocument, strings) ? strings.flatMap(([from, to]) => sentencePairs(from, to)) : [];
}

function sentencePairs(source: string, translation: string): { source: MaskedText; target: MaskedText }[] {
  const sources = maskedSentences(source);
  const targets = maskedSentences(translation);
  if (sources.length !== targets.length) return [];
  return sources.map((from, index) => ({ source: from, target: targets[index] })).filter((pair) => memoryKey(pair.source.text) !== memoryKey(pair.target.text));
}

/** Collects the string values at the same paths; false when the two documents differ in anything but strings. */
function alignedStrings(source: unknown, translation: unknown, strings: [string, string][]): boolean {
  if (typeof source === 'string') {
    if (typeof translation !== 'string') return false;
    strings.push([source, translation]);
    return true;
  }
  if (Array.isArray(source)) {
    return Array.isArray(translation) && source.length === translation.length && source.every((item, index) => alignedStrings(item, translation[index], strings));
  }
  if (source !== null && typeof source === 'object') {
    if (translation === null || typeof translation !== 'object' || Array.isArray(translation)) return false;
    const keys = Object.keys(source);
    const other = translation as Record<string, unknown>;
    if (keys.length !== Object.keys(other).length || !keys.every((key) => key in other)) return false;
    return keys.every((key) => {
      const value = (source as Record<string, unknown>)[key];
      return key.startsWith('@') ? sameShape(value, other[key]) : alignedStrings(value, other[key], strings);
    });
  }
  return source === translation;
}

/** Equal but for string values, as an edit of a JSON text must leave a document. */
function sameShape(a: unknown, b: unknown): boolean {
  const shape = (value: unknown) => JSON.stringify(value, (_key, inner: unknown) => (typeof inner === 'string' ? '' : inner));
  return shape(a) === shape(b);
}
