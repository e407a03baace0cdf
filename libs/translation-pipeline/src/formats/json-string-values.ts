/**
 * Where the string values of a JSON text stand in it, and which of them are locale files'
 * notes rather than text: what the JSON format translates, and what a reviewer's tools align.
 * Free of Node, as part of the text-spans entry point.
 */
/** Keys at the top of an object document whose value names the document's language. */
const LOCALE_KEYS = new Set(['@@locale', 'locale']);
const WEB_EXTENSION_KEYS = new Set(['message', 'description', 'placeholders']);

export interface JsonStringValue {
  start: number;
  end: number;
  /** Under a key starting with `@` at any depth, or a WebExtension message's note or placeholder data. */
  metadata: boolean;
  /** Whether its key is `@@locale` or `locale` at the top of an object document. */
  localeKey: boolean;
  /** Its JSON Pointer (RFC 6901): `/menu/open`, `/items/0`; '' for a document that is one string. */
  path: string;
}

interface Container {
  /** The parsed object or array. */
  value: unknown;
  array: boolean;
  metadata: boolean;
  /** Whether it is a WebExtension message, whose members other than `message` are metadata. */
  message: boolean;
  /** The key whose value comes next, in an object; the index of the next item, in an array. */
  key?: string;
  index: number;
}

/** The string literals of a valid JSON text that are values, not keys, with where they stand; `document` is the text parsed. */
export function* jsonStringValues(json: string, document: unknown): Generator<JsonStringValue> {
  const open: Container[] = [];
  const underMetadata = () => {
    const container = open.at(-1);
    if (container === undefined) return false;
    return container.metadata || container.key?.startsWith('@') === true || (container.message && container.key !== 'message');
  };
  // `JSON.parse` keeps the last of repeated keys: such a key's earlier values are looked up as the last.
  const child = (): unknown => {
    const container = open.at(-1);
    if (!container) return document;
    return container.array ? (container.value as unknown[])[container.index] : (container.value as Record<string, unknown>)[container.key!];
  };
  for (let i = 0; i < json.length; i++) {
    const char = json[i];
    if (char === '{' || char === '[') {
      const value = child();
      open.push({ value, array: char === '[', metadata: underMetadata(), message: char === '{' && isWebExtensionMessage(value), index: 0 });
    } else if (char === '}' || char === ']') open.pop();
    else if (char === ',' && open.at(-1)?.array) open.at(-1)!.index++;
    if (char !== '"') continue;
    const start = i;
    for (i++; json[i] !== '"'; i++) {
      if (json[i] === '\\') i++;
    }
    const end = i + 1;
    let next = end;
    while (' \t\n\r'.includes(json[next] ?? '.')) next++;
    if (json[next] === ':') {
      open.at(-1)!.key = JSON.parse(json.slice(start, end)) as string;
      continue;
    }
    const top = open.length === 1 && !open[0].array ? open[0].key : undefined;
    const path = open.map((container) => `/${container.array ? container.index : container.key!.replaceAll('~', '~0').replaceAll('/', '~1')}`).join('');
    yield { start, end, metadata: underMetadata(), localeKey: top !== undefined && LOCALE_KEYS.has(top), path };
  }
}

/** Its members are exactly a WebExtension message's: a string `message` and a `description` or `placeholders` (a locale file's own `message` and `description` keys among others are not). */
function isWebExtensionMessage(value: unknown): boolean {
  if (value === null || typeof value !== 'object' || Array.isArray(value)) return false;
  const keys = Object.keys(value);
  return typeof (value as { message?: unknown }).message === 'string' && keys.length > 1 && keys.every((key) => WEB_EXTENSION_KEYS.has(key));
}
