import { decodeHTMLAttribute } from 'entities';

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
 * bogus end tags and the content of raw-text elements such as `<script>`.
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
 */
export function htmlTokens(html: string): HtmlToken[] {
  const tokens: HtmlToken[] = [];
  let textStart = 0;
  let index = 0;
  const pushText = (end: number) => {
    if (end > textStart) tokens.push({ kind: 'text', start: textStart, end });
  };
  while (index < html.length) {
    const lt = html.indexOf('<', index);
    if (lt < 0) break;
    const token = markupAt(html, lt);
    if (!token) {
      index = lt + 1;
      continue;
    }
    pushText(lt);
    tokens.push(token);
    index = textStart = token.end;
    if (token.kind === 'start' && (RAW_TEXT.has(token.name) || ESCAPABLE_RAW_TEXT.has(token.name))) {
      const close = endTagOf(html, token.name, index);
      if (close > index) tokens.push({ kind: RAW_TEXT.has(token.name) ? 'other' : 'text', start: index, end: close });
      index = textStart = close;
    }
  }
  pushText(html.length);
  return tokens;
}

function markupAt(html: string, lt: number): HtmlToken | undefined {
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
    const tag = readTag(html, lt + 2);
    return tag ? { kind: 'end', name: tag.name, start: lt, end: tag.end } : cutOff(html, lt);
  }
  if (!LETTER.test(next)) return undefined;
  const tag = readTag(html, lt + 1);
  return tag ? { kind: 'start', start: lt, ...tag } : cutOff(html, lt);
}

/** Reads a tag name and its attributes from `from`, up to and including the closing `>`; nothing for a tag the text ends inside. */
function readTag(html: string, from: number) {
  let index = from;
  while (index < html.length && !SPACE.test(html[index]) && html[index] !== '/' && html[index] !== '>') index++;
  const name = html.slice(from, index).toLowerCase();
  const attributes: HtmlAttribute[] = [];
  while (index < html.length) {
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
    const nameStart = index++;
    while (index < html.length && !SPACE.test(html[index]) && !'/>='.includes(html[index])) index++;
    const attribute: HtmlAttribute = { name: html.slice(nameStart, index).toLowerCase(), value: '', valueStart: index, valueEnd: index, quote: '', hasValue: false };
    let look = index;
    while (look < html.length && SPACE.test(html[look])) look++;
    if (html[look] === '=') {
      look++;
      while (look < html.length && SPACE.test(html[look])) look++;
      const quote = html[look];
      if (quote === '"' || quote === "'") {
        const close = html.indexOf(quote, look + 1);
        Object.assign(attribute, { quote, valueStart: look + 1, valueEnd: close < 0 ? html.length : close });
        index = close < 0 ? html.length : close + 1;
      } else {
        index = look;
        while (index < html.length && !SPACE.test(html[index]) && html[index] !== '>') index++;
        Object.assign(attribute, { valueStart: look, valueEnd: index });
      }
      attribute.hasValue = true;
      attribute.value = decodeHTMLAttribute(html.slice(attribute.valueStart, attribute.valueEnd));
    }
    attributes.push(attribute);
  }
  return undefined;
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
