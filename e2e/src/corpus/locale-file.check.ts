import { parseTree, type Node, type ParseError } from 'jsonc-parser';
import { expect } from 'vitest';
import { icuSkeleton, syntaxOf, wordsOf } from './corpus-syntax';

/** A string of a locale file, where it stands and whether it is text for people. */
interface LocaleString {
  path: string;
  value: string;
  translatable: boolean;
}

const WEB_EXTENSION_KEYS = ['message', 'description', 'placeholders'];

/** The file's syntax tree, repeated keys included (`JSON.parse` keeps only the last, a translation keeps them all). */
function tree(json: string): Node {
  const errors: ParseError[] = [];
  const root = parseTree(json, errors, { allowTrailingComma: false, disallowComments: true });
  expect(errors, 'valid JSON').toEqual([]);
  return root!;
}

const members = (node: Node) => (node.children ?? []).map((property) => ({ key: property.children![0].value as string, value: property.children![1] }));

/**
 * The strings of a JSON locale file in document order. Not for translation: everything under a
 * key starting with `@` (ARB metadata, `@@locale`), a top-level `locale`, and a WebExtension
 * message's `description` and `placeholders` (notes for translators and data).
 */
export function localeStrings(json: string): LocaleString[] {
  const strings: LocaleString[] = [];
  const walk = (node: Node, path: string, translatable: boolean) => {
    if (node.type === 'string') strings.push({ path, value: node.value as string, translatable });
    else if (node.type === 'array') node.children!.forEach((item, index) => walk(item, `${path}[${index}]`, translatable));
    else if (node.type === 'object') {
      const entries = members(node);
      const keys = entries.map((entry) => entry.key);
      const message = entries.some((entry) => entry.key === 'message' && entry.value.type === 'string') && keys.length > 1 && keys.every((key) => WEB_EXTENSION_KEYS.includes(key));
      for (const { key, value } of entries) {
        const note = key.startsWith('@') || (path === '' && key === 'locale') || (message && key !== 'message');
        walk(value, `${path}.${key}`, translatable && !note);
      }
    }
  };
  walk(tree(json), '', true);
  return strings;
}

/** Words a translation of the file is billed for, counted without the pipeline. */
export function localeFileWords(source: string): number {
  return localeStrings(source)
    .filter((string) => string.translatable)
    .reduce((sum, string) => sum + wordsOf(string.value), 0);
}

/**
 * A translated locale file against its source: the same keys in the same order and the same
 * non-string values; strings that are not for translation unchanged; in every other string the
 * same placeholders, template code, tags, line breaks and ICU structure. Returns how many
 * translatable strings with words changed, out of how many.
 */
export function expectIntactLocaleFile(source: string, translated: string): { changed: number; of: number } {
  expect(shape(translated, tree(translated))).toEqual(shape(source, tree(source)));
  const strings = localeStrings(source);
  const translations = localeStrings(translated);
  let changed = 0;
  let of = 0;
  strings.forEach((string, index) => {
    const translation = translations[index];
    const where = `${string.path}: ${JSON.stringify(string.value)} → ${JSON.stringify(translation.value)}`;
    if (!string.translatable) {
      expect(translation.value, where).toBe(string.value);
      return;
    }
    expect(syntaxOf(translation.value), where).toEqual(syntaxOf(string.value));
    expect(icuSkeleton(translation.value), where).toEqual(icuSkeleton(string.value));
    expect(lineBreaks(translation.value), where).toEqual(lineBreaks(string.value));
    if (wordsOf(string.value) > 0) {
      of++;
      if (translation.value !== string.value) changed++;
    }
  });
  return { changed, of };
}

/** Keys in order and every non-string value (numbers as written); strings as a marker. */
function shape(json: string, node: Node): unknown {
  if (node.type === 'string') return '…';
  if (node.type === 'array') return node.children!.map((item) => shape(json, item));
  if (node.type === 'object') return members(node).map(({ key, value }) => [key, shape(json, value)]);
  return json.slice(node.offset, node.offset + node.length);
}

function lineBreaks(text: string): string[] {
  return text.match(/\r\n|[\n\r\u2028\u2029]/g) ?? [];
}
