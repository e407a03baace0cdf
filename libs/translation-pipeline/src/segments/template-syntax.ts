import type { TextRange } from './variables';

/**
 * Template syntax, which the template engine replaces before anyone reads the text: kept byte
 * for byte, never translated, never counted. In HTML it is found on the source bytes before the
 * markup, as the template engine sees the file, so a `<` or `&&` inside it is neither a tag nor
 * an entity. Found:
 * - Jinja, Django, Nunjucks, Liquid: `{% … %}` (and `{%- … -%}`), `{{ … }}`, `{# … #}`;
 * - Handlebars, Mustache: `{{#if x}}`, `{{/if}}`, `{{else}}`, `{{^x}}`, `{{> partial}}`,
 *   `{{{raw}}}`, `{{~x~}}`, `{{! … }}`, `{{!-- … --}}` (whose body may hold `}}`);
 * - EJS, ERB: `<% … %>`, `<%= … %>`, `<%- … %>`, `<%# … %>`, `-%>`;
 * - vue-i18n linked messages: `@:key`, `@.lower:key`, `@:(key)`, `@:{'key'}`;
 * - i18next nesting: `$t(key)`, `$t(key, { "count": {{count}} })`;
 * - Rails and Ruby format: `%{name}`, `%<name>s`.
 *
 * Quoted strings inside `{{ }}`, `{% %}` and `$t( )` may hold the closing delimiter
 * (`{{#get "posts" filter="id:-{{id}}"}}`). A tag is at most `MAX_TAG_LENGTH` long, and a scan
 * gives up at the first opener of a new tag outside strings: tags do not nest, so text full of
 * unmatched openers is scanned a bounded number of times per character. An ICU message is
 * never taken for a tag: `{{count} items}` is not a Mustache tag (a `}` that does not close it),
 * nor `{#}` a Jinja comment.
 */
export const MAX_TAG_LENGTH = 4_000;

const LINKED_MESSAGE = /@(?:\.[A-Za-z]+)?:(?:\([^()\s]{1,200}\)|\{[^{}]{1,200}\}|[\w$|/-]+(?:\.[\w$|/-]+)*)/y;
const RAILS_NAMED = /%\{[^{}\s%]{1,200}\}|%<[A-Za-z_]\w{0,200}>[-+ 0#]*(?:\d+|\*)?(?:\.\d+)?[bBdiouxXeEfgGaAcps]/y;
/** A Mustache or Jinja tag read without its strings, for a quote that is only an apostrophe (`{{ it's }}`). */
const LOOSE_MUSTACHE = new RegExp(`\\{\\{[^{}]{0,${MAX_TAG_LENGTH}}\\}\\}`, 'y');
const LOOSE_STATEMENT = new RegExp(`\\{%(?:(?!%\\}|\\{[{%#])[\\s\\S]){0,${MAX_TAG_LENGTH}}%\\}`, 'y');
const LOOSE_NESTING = new RegExp(`\\$t\\([^()]{1,${MAX_TAG_LENGTH}}\\)`, 'y');

/**
 * How a tag's body is read: `nest`/`unnest` count `{ }` or `( )`, and an `unnest` that is not
 * nested means there is no tag; `closesNested`: the closer counts inside nesting too;
 * `strings`: quoted strings are skipped; `opens`: where another tag opens, which also means none.
 */
interface Rules {
  nest?: string;
  unnest?: string;
  closesNested?: boolean;
  strings: boolean;
  opens: (text: string, index: number) => boolean;
}

/** `{{`, `{%` or `{#`: tags of one template engine do not nest. */
const opensBraceTag = (text: string, index: number) => text[index] === '{' && '{%#'.includes(text[index + 1] ?? '.');
const EXPRESSION: Rules = { nest: '{', unnest: '}', strings: true, opens: opensBraceTag };
const STATEMENT: Rules = { strings: true, opens: opensBraceTag };
const COMMENT: Rules = { nest: '{', unnest: '}', closesNested: true, strings: false, opens: (text, index) => text.startsWith('{#', index) };
const NESTING: Rules = { nest: '(', unnest: ')', strings: true, opens: (text, index) => text.startsWith('$t(', index) };

export function findTemplateSyntax(text: string): TextRange[] {
  const scanner = new TemplateScanner(text);
  const found: TextRange[] = [];
  let index = 0;
  while (index < text.length) {
    const end = scanner.tagAt(index);
    if (end === undefined) {
      index++;
    } else {
      found.push({ start: index, end });
      index = end;
    }
  }
  return found;
}

class TemplateScanner {
  private readonly next = new Map<string, NextIndex>();

  constructor(private readonly text: string) {}

  /** End (exclusive) of the template tag starting at `start`, if one starts there. */
  tagAt(start: number): number | undefined {
    const { text } = this;
    const second = text[start + 1];
    switch (text[start]) {
      case '{':
        if (second === '{') return this.mustache(start);
        if (second === '%') return this.statement(start);
        if (second === '#') return this.comment(start);
        return undefined;
      case '<':
        return second === '%' ? this.closedBy(start, start + 2, '%>') : undefined;
      case '@':
        return second === ':' || second === '.' ? sticky(LINKED_MESSAGE, text, start) : undefined;
      case '$':
        return second === 't' && text[start + 2] === '(' ? this.nesting(start) : undefined;
      case '%':
        return second === '{' || second === '<' ? sticky(RAILS_NAMED, text, start) : undefined;
      default:
        return undefined;
    }
  }

  /** `{{ … }}`, `{{{ … }}}`, `{{{{ … }}}}` and the Handlebars comments. */
  private mustache(start: number): number | undefined {
    const { text } = this;
    let braces = 2;
    while (braces < 4 && text[start + braces] === '{') braces++;
    const body = start + braces;
    if (braces === 2) {
      const bang = text[body] === '~' ? body + 1 : body;
      if (text.startsWith('!--', bang)) {
        const ends = [this.closedBy(start, bang + 3, '--}}'), this.closedBy(start, bang + 3, '--~}}')].filter((end) => end !== undefined);
        return ends.length > 0 ? Math.min(...ends) : undefined;
      }
      if (text[bang] === '!') return this.closedBy(start, bang + 1, '}}');
    }
    return this.scan(start, body, '}'.repeat(braces), EXPRESSION, LOOSE_MUSTACHE);
  }

  /** `{% … %}`: Django, Liquid and Jinja statements. */
  private statement(start: number): number | undefined {
    return this.scan(start, start + 2, '%}', STATEMENT, LOOSE_STATEMENT);
  }

  /** `{# … #}`: free text up to the first `#}`; a `}` it did not open (ICU's `{#}`, `{# items}`) means no comment. */
  private comment(start: number): number | undefined {
    return this.scan(start, start + 2, '#}', COMMENT);
  }

  /** `$t(key, options)`: parentheses balanced, strings skipped. */
  private nesting(start: number): number | undefined {
    return this.scan(start, start + 3, ')', NESTING, LOOSE_NESTING);
  }

  /**
   * Reads a tag's body from `from` to its `closer` (see `Rules`), within the length limit. A
   * string that never closes was an apostrophe: the tag is then read by `loose`, if given.
   */
  private scan(start: number, from: number, closer: string, rules: Rules, loose?: RegExp): number | undefined {
    // Most unmatched openers have no closer within reach at all: refused here at once.
    if (this.closedBy(start, from, closer) === undefined) return undefined;
    const { text } = this;
    const limit = Math.min(text.length, start + MAX_TAG_LENGTH);
    let depth = 0;
    for (let index = from; index < limit; index++) {
      const char = text[index];
      if ((depth === 0 || rules.closesNested) && text.startsWith(closer, index)) return index + closer.length;
      if (rules.opens(text, index)) return undefined;
      if (char === rules.nest) {
        depth++;
      } else if (char === rules.unnest) {
        if (depth === 0) return undefined;
        depth--;
      } else if (rules.strings && (char === '"' || char === "'")) {
        const close = stringEnd(text, index, limit);
        if (close === undefined) return loose && sticky(loose, text, start);
        index = close;
      }
    }
    return undefined;
  }

  /** The end of a tag from `start` whose body from `from` runs to the first `closer`, within the length limit. */
  private closedBy(start: number, from: number, closer: string): number | undefined {
    const at = this.nextIndex(closer).from(from);
    return at >= 0 && at + closer.length - start <= MAX_TAG_LENGTH ? at + closer.length : undefined;
  }

  private nextIndex(needle: string): NextIndex {
    let next = this.next.get(needle);
    if (!next) this.next.set(needle, (next = new NextIndex(this.text, needle)));
    return next;
  }
}

/**
 * The next occurrence of a string at or after a position. Openers are tried from left to right,
 * so the answer for one usually holds for the next: remembering it keeps a text full of
 * openers without their closer linear.
 */
class NextIndex {
  private asked = Number.POSITIVE_INFINITY;
  private at = -1;

  constructor(
    private readonly text: string,
    private readonly needle: string,
  ) {}

  from(position: number): number {
    if (position < this.asked || (this.at >= 0 && position > this.at)) {
      this.asked = position;
      this.at = this.text.indexOf(this.needle, position);
    }
    return this.at;
  }
}

/** Index of the quote closing the string opened at `open` (a backslash escapes), if before `limit`. */
function stringEnd(text: string, open: number, limit: number): number | undefined {
  for (let index = open + 1; index < limit; index++) {
    if (text[index] === '\\') index++;
    else if (text[index] === text[open]) return index;
  }
  return undefined;
}

function sticky(pattern: RegExp, text: string, start: number): number | undefined {
  pattern.lastIndex = start;
  return pattern.test(text) ? pattern.lastIndex : undefined;
}
