import { decodeHTMLAttribute } from 'entities';
import { findTemplateSyntax } from '../../segments/template-syntax';
import type { TextRange } from '../../segments/variables';

/** An attribute of a start tag; `valueStart`/`valueEnd` are the value's bytes without its quotes. */
export interface HtmlAttribute {
  /** ASCII-lowercased, as HTML compares attribute names. */
  name: string;
  /** Entity-decoded. */
  value: string;
  valueStart: number;
  valueEnd: number;
  quote: '"' | "'" | '';
  hasValue: boolean;
}

/**
 * A piece of an HTML text with its source offsets. `other` is markup that is never translated:
 * comments (conditional ones included), the doctype, CDATA sections, processing instructions,
 * bogus end tags, the content of raw-text elements such as `<script>`, and template syntax in
 * text (see findTemplateSyntax).
 */
export type HtmlToken =
  | { kind: 'text'; start: number; end: number }
  | { kind: 'other'; start: number; end: number }
  | { kind: 'start'; name: string; start: number; end: number; attributes: HtmlAttribute[]; selfClosing: boolean }
  | { kind: 'end'; name: string; start: number; end: number };

/** Elements whose content is text up to their end tag, never markup. */
const RAW_TEXT = new Set(['script', 'style', 'xmp', 'iframe', 'noembed', 'noframes']);
/** Elements whose content is text with character references, never markup. */
const ESCAPABLE_RAW_TEXT = new Set(['textarea', 'title']);
const SPACE = /[\t\n\f\r ]/;
const LETTER = /[A-Za-z]/;

/**
 * Cuts HTML into tokens covering every byte exactly once, following the tokenizer of the HTML
 * standard closely enough that each tag's bytes are found as a browser finds them: any case,
 * whitespace and newlines inside tags (`</A\n>`, `</b >`), quoted and unquoted attributes,
 * `<br/>`. What is not a tag (`a < b`, `<3`) is text. Written by hand because the offsets
 * htmlparser2 reports for end tags with whitespace before `>` miss the `>`.
 *
 * A template engine reads the file before any browser does, so template syntax is found
 * first, on the source bytes: in text it is one `other` token, whatever it holds
 * (`<% if (a<b) { %>`, `{{ "<b>" }}`); inside a tag it belongs to the attribute or the gap it
 * stands in (`class="{{#if x "a"}}b{{/if}}"`, `<div {{attrs}}>`).
 */
export function htmlTokens(html: string): HtmlToken[] {
  const templates = new TemplateSpans(html);
  const tokens: HtmlToken[] = [];
  let textStart = 0;
  let index = 0;
  const pushText = (end: number) => {
    if (end > textStart) tokens.push({ kind: 'text', start: textStart, end });
  };
  /** Text from `textStart` to `end`, its template syntax apart. */
  const pushTextWithTemplates = (end: number) => {
    for (let span = templates.from(textStart); span && span.end <= end; span = templates.from(span.end)) {
      pushText(span.start);
      tokens.push(other(span.start, span.end));
      textStart = span.end;
    }
    pushText(end);
  };
  // The next `<` from `index` (the text's length when there is none), kept while template syntax is stepped over.
  let lt = -1;
  while (index < html.length) {
    if (lt < index) {
      lt = html.indexOf('<', index);
      if (lt < 0) lt = html.length;
    }
    const template = templates.from(index);
    if (template && template.start <= lt) {
      pushText(template.start);
      tokens.push(other(template.start, template.end));
      index = textStart = template.end;
      continue;
    }
    if (lt === html.length) break;
    const token = markupAt(html, lt, templates);
    if (!token) {
      index = lt + 1;
      continue;
    }
    pushText(lt);
    tokens.push(token);
    index = textStart = token.end;
    if (token.kind === 'start' && (RAW_TEXT.has(token.name) || ESCAPABLE_RAW_TEXT.has(token.name))) {
      const close = endTagOf(html, token.name, index);
      if (!RAW_TEXT.has(token.name)) pushTextWithTemplates(close);
      else if (close > index) tokens.push(other(index, close));
      index = textStart = close;
    }
  }
  pushText(html.length);
  return tokens;
}

/** The template syntax of a text, looked up by position. */
class TemplateSpans {
  private readonly spans: TextRange[];

  constructor(text: string) {
    this.spans = findTemplateSyntax(text);
  }

  /** The first span starting at or after `position`. */
  from(position: number): TextRange | undefined {
    let low = 0;
    let high = this.spans.length;
    while (low < high) {
      const middle = (low + high) >>> 1;
      if (this.spans[middle].start < position) low = middle + 1;
      else high = middle;
    }
    return this.spans[low];
  }

  /** The end of the span starting at `position`, if one does. */
  endAt(position: number): number | undefined {
    const span = this.from(position);
    return span?.start === position ? span.end : undefined;
  }
}

function markupAt(html: string, lt: number, templates: TemplateSpans): HtmlToken | undefined {
  const next = html[lt + 1] ?? '';
  if (html.startsWith('<!--', lt)) {
    if (html.startsWith('<!-->', lt)) return other(lt, lt + 5);
    if (html.startsWith('<!--->', lt)) return other(lt, lt + 6);
    return other(lt, after(html, '-->', lt + 4));
  }
  if (html.startsWith('<![CDATA[', lt)) return other(lt, after(html, ']]>', lt + 9));
  if (next === '!' || next === '?') return other(lt, after(html, '>', lt + 2));
  if (next === '/') {
    if (html[lt + 2] === '>') return other(lt, lt + 3);
    if (!LETTER.test(html[lt + 2] ?? '')) return other(lt, after(html, '>', lt + 2));
    const tag = readTag(html, lt + 2, templates);
    return tag ? { kind: 'end', name: tag.name, start: lt, end: tag.end } : cutOff(html, lt);
  }
  if (!LETTER.test(next)) return undefined;
  const tag = readTag(html, lt + 1, templates);
  return tag ? { kind: 'start', start: lt, ...tag } : cutOff(html, lt);
}

/**
 * Reads a tag name and its attributes from `from`, up to and including the closing `>`; nothing
 * for a tag the text ends inside. Template syntax is stepped over whole, wherever it starts.
 */
function readTag(html: string, from: number, templates: TemplateSpans) {
  const step = (at: number) => templates.endAt(at) ?? at + 1;
  let index = from;
  while (index < html.length && !SPACE.test(html[index]) && html[index] !== '/' && html[index] !== '>') index = step(index);
  const name = html.slice(from, index).toLowerCase();
  const attributes: HtmlAttribute[] = [];
  while (index < html.length) {
    const template = templates.endAt(index);
    if (template !== undefined) {
      index = template;
      continue;
    }
    if (SPACE.test(html[index])) {
      index++;
      continue;
    }
    if (html[index] === '>') return { name, attributes, selfClosing: false, end: index + 1 };
    if (html.startsWith('/>', index)) return { name, attributes, selfClosing: true, end: index + 2 };
    if (html[index] === '/') {
      index++;
      continue;
    }
    const nameStart = index;
    index = step(index);
    while (index < html.length && !SPACE.test(html[index]) && !'/>='.includes(html[index])) index = step(index);
    const attribute: HtmlAttribute = { name: html.slice(nameStart, index).toLowerCase(), value: '', valueStart: index, valueEnd: index, quote: '', hasValue: false };
    let look = index;
    while (look < html.length && SPACE.test(html[look])) look++;
    if (html[look] === '=') {
      look++;
      while (look < html.length && SPACE.test(html[look])) look++;
      const quote = html[look];
      if (quote === '"' || quote === "'") {
        const close = closingQuote(html, look, templates);
        Object.assign(attribute, { quote, valueStart: look + 1, valueEnd: close < 0 ? html.length : close });
        index = close < 0 ? html.length : close + 1;
      } else {
        index = look;
        while (index < html.length && !SPACE.test(html[index]) && html[index] !== '>') index = step(index);
        Object.assign(attribute, { valueStart: look, valueEnd: index });
      }
      attribute.hasValue = true;
      attribute.value = decodeHTMLAttribute(html.slice(attribute.valueStart, attribute.valueEnd));
    }
    attributes.push(attribute);
  }
  return undefined;
}

/** The quote closing the value opened by the quote at `open`, outside template syntax; -1 when the text ends first. */
function closingQuote(html: string, open: number, templates: TemplateSpans): number {
  let close = html.indexOf(html[open], open + 1);
  for (let span = templates.from(open + 1); close >= 0 && span && span.start < close; span = templates.from(span.end)) {
    if (span.end > close) close = html.indexOf(html[open], span.end);
  }
  return close;
}

/** Where the first `</name` (any case) followed by a tag-ending character starts, or the text's end. */
function endTagOf(html: string, name: string, from: number): number {
  const pattern = new RegExp(`</${name}[\\t\\n\\f\\r />]`, 'gi');
  pattern.lastIndex = from;
  return pattern.exec(html)?.index ?? html.length;
}

const other = (start: number, end: number): HtmlToken => ({ kind: 'other', start, end });
/** A tag cut off by the end of the text: browsers drop it; its bytes are kept as they are, attributes untouched. */
const cutOff = (html: string, start: number) => other(start, html.length);
const after = (html: string, terminator: string, from: number) => {
  const at = html.indexOf(terminator, from);
  return at < 0 ? html.length : at + terminator.length;
};
