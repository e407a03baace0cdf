/**
 * Variables of the common message formats. They are found in source text so that they pass
 * through the engine untouched and are neither translated nor counted:
 * `{name}`, `{0}`, `{{name}}` (and `{{ user.name }}`, `{{#if x}}`), `${x}`, WebExtension `$NAME$`,
 * printf conversions (`%s`, `%d`, `%1$s`, `%.2f`, `%-5d`, `%(name)s`, `%@`, `%%`) and ICU
 * arguments (`{count, number}`, `{count, plural, one {# item} other {# items}}`).
 *
 * Plain text and JSON strings that are ICU messages with plural/select arguments are read as
 * such beforehand, and their inner messages translated (see formats/icu-message.ts); a
 * plural/select block that still reaches this point (in HTML text) is kept whole, inner messages
 * included, neither translated nor counted: an opaque block can never come back broken.
 */
export interface TextRange {
  start: number;
  end: number;
}

const PRINTF = /%(?:\d+\$|\([\w.]+\))?[-+0#]*(?:\d+|\*)?(?:\.(?:\d+|\*))?(?:hh|ll|[hlLzjtq])?[sdifuxXeEgGcp@%]/y;
const WEB_EXTENSION = /\$[A-Za-z0-9_@]+\$/y;
const SIMPLE_ARGUMENT = /^\s*[\p{L}\p{N}_.$-]+\s*$/u;
const ICU_ARGUMENT = /^\s*[\p{L}\p{N}_.]+\s*,\s*[a-z]+/iu;
const MUSTACHE = /^\{[^{}]*\}$/;
/** How far a closing brace may be from its opening one. */
const MAX_VARIABLE_LENGTH = 2_000;

export function findVariables(text: string): TextRange[] {
  const found: TextRange[] = [];
  const braces = bracePartners(text);
  let i = 0;
  while (i < text.length) {
    const end = variableEndAt(text, i, braces);
    if (end === undefined) {
      i++;
    } else {
      found.push({ start: i, end });
      i = end;
    }
  }
  return found;
}

/** End (exclusive) of the variable starting at `start`, if one starts there. */
function variableEndAt(text: string, start: number, braces: Int32Array): number | undefined {
  const char = text[start];
  if (char === '%') {
    PRINTF.lastIndex = start;
    return PRINTF.test(text) ? PRINTF.lastIndex : undefined;
  }
  if (char === '$' && text[start + 1] === '{') {
    const close = matchingBrace(braces, start + 1);
    return close === undefined ? undefined : close + 1;
  }
  if (char === '$') {
    WEB_EXTENSION.lastIndex = start;
    return WEB_EXTENSION.test(text) ? WEB_EXTENSION.lastIndex : undefined;
  }
  if (char === '{') {
    const close = matchingBrace(braces, start);
    if (close === undefined) return undefined;
    const inner = text.slice(start + 1, close);
    return MUSTACHE.test(inner) || SIMPLE_ARGUMENT.test(inner) || ICU_ARGUMENT.test(inner) ? close + 1 : undefined;
  }
  return undefined;
}

function matchingBrace(braces: Int32Array, open: number): number | undefined {
  const close = braces[open];
  return close > 0 && close - open < MAX_VARIABLE_LENGTH ? close : undefined;
}

/**
 * For each `{`, the index of the `}` closing it (0 when none), found in one pass: looking for
 * each brace's partner on its own would read text full of stray `{` once per brace.
 */
function bracePartners(text: string): Int32Array {
  const partners = new Int32Array(text.includes('{') ? text.length : 0);
  const open: number[] = [];
  for (let i = 0; i < partners.length; i++) {
    if (text[i] === '{') open.push(i);
    else if (text[i] === '}' && open.length > 0) partners[open.pop()!] = i;
  }
  return partners;
}
