/**
 * Variables of the common message formats. They are found in source text so that they pass
 * through the engine untouched and are neither translated nor counted:
 * `{name}`, `{0}`, `{{name}}` (and `{{ user.name }}`, `{{#if x}}`), `${x}`,
 * printf conversions (`%s`, `%d`, `%1$s`, `%.2f`, `%-5d`, `%(name)s`, `%@`, `%%`) and ICU
 * arguments (`{count, number}`, `{count, plural, one {# item} other {# items}}`).
 *
 * An ICU plural/select block is kept whole, inner messages included: their words are neither
 * translated nor counted. Translating the inner messages would need the engine to keep an ICU
 * structure intact, which no engine promises; an opaque block can never come back broken.
 */
export interface TextRange {
  start: number;
  end: number;
}

const PRINTF = /%(?:\d+\$|\([\w.]+\))?[-+0#]*(?:\d+|\*)?(?:\.(?:\d+|\*))?(?:hh|ll|[hlLzjtq])?[sdifuxXeEgGcp@%]/y;
const SIMPLE_ARGUMENT = /^\s*[\p{L}\p{N}_.$-]+\s*$/u;
const ICU_ARGUMENT = /^\s*[\p{L}\p{N}_.]+\s*,\s*[a-z]+/iu;
const MUSTACHE = /^\{[^{}]*\}$/;
/** How far a closing brace is looked for, so that text full of stray `{` stays linear. */
const MAX_VARIABLE_LENGTH = 2_000;

export function findVariables(text: string): TextRange[] {
  const found: TextRange[] = [];
  let i = 0;
  while (i < text.length) {
    const end = variableEndAt(text, i);
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
function variableEndAt(text: string, start: number): number | undefined {
  const char = text[start];
  if (char === '%') {
    PRINTF.lastIndex = start;
    return PRINTF.test(text) ? PRINTF.lastIndex : undefined;
  }
  if (char === '$' && text[start + 1] === '{') {
    const close = matchingBrace(text, start + 1);
    return close === undefined ? undefined : close + 1;
  }
  if (char === '{') {
    const close = matchingBrace(text, start);
    if (close === undefined) return undefined;
    const inner = text.slice(start + 1, close);
    return MUSTACHE.test(inner) || SIMPLE_ARGUMENT.test(inner) || ICU_ARGUMENT.test(inner) ? close + 1 : undefined;
  }
  return undefined;
}

function matchingBrace(text: string, open: number): number | undefined {
  let depth = 0;
  for (let i = open; i < Math.min(text.length, open + MAX_VARIABLE_LENGTH); i++) {
    if (text[i] === '{') depth++;
    else if (text[i] === '}' && --depth === 0) return i;
  }
  return undefined;
}
