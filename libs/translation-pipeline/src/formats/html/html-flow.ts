import { htmlTokens, type HtmlToken } from './html-tokens';

export type StartTag = Extract<HtmlToken, { kind: 'start' }>;

/**
 * The HTML text as the sentence builder sees it: `text`; `open`/`close` of inline elements that
 * sit inside a sentence; `keep`, opaque markup inside a sentence (an image, a comment, a
 * protected inline element); `block`, kept markup that ends a sentence. `tag` is a start tag
 * whose attributes may be translated (outside protected content).
 */
export type FlowToken =
  | { kind: 'text'; start: number; end: number }
  | { kind: 'open'; name: string; start: number; end: number; tag?: StartTag }
  | { kind: 'close'; name: string; start: number; end: number; tag?: StartTag }
  | { kind: 'keep'; start: number; end: number; tag?: StartTag }
  | { kind: 'block'; start: number; end: number; tag?: StartTag };

/** Phrasing elements whose tags travel with the words they enclose inside one sentence. */
const INLINE = new Set([
  'a', 'abbr', 'acronym', 'b', 'bdi', 'bdo', 'big', 'cite', 'data', 'del', 'dfn', 'em', 'font', 'i', 'ins',
  'label', 'mark', 'nobr', 'q', 's', 'small', 'span', 'strike', 'strong', 'sub', 'sup', 'time', 'u',
]);
/** Empty elements that sit inside a sentence as one opaque placeholder. */
const INLINE_VOID = new Set(['img', 'input', 'wbr']);
/**
 * Elements whose whole subtree is kept untranslated; those that sit inside a sentence first.
 * Code, keyboard input, program output, teletype text and variables are code-like:
 * `<tt>_.template</tt>` names a function, not a template.
 */
const PROTECTED_INLINE = new Set(['code', 'kbd', 'samp', 'tt', 'var', 'svg', 'math']);
const PROTECTED = new Set([...PROTECTED_INLINE, 'script', 'style', 'pre', 'textarea', 'iframe', 'noembed', 'noframes', 'xmp']);
/** Whether an element's content is kept as it is, wherever it appears (also as look-alike markup in plain text). */
export const isProtectedElement = (name: string) => PROTECTED.has(name);
/** Elements that never have content or an end tag. */
const VOID = new Set(['area', 'base', 'basefont', 'bgsound', 'br', 'col', 'embed', 'frame', 'hr', 'img', 'input', 'keygen', 'link', 'meta', 'param', 'source', 'track', 'wbr']);

/** An element left open that a start tag ends implicitly: the nearest `closes` below the first `stops`. */
interface ImpliedEnd {
  closes: string[];
  stops: string[];
}
const END_P: ImpliedEnd = { closes: ['p'], stops: ['applet', 'button', 'caption', 'html', 'marquee', 'object', 'table', 'td', 'template', 'th'] };
const ENDS_P = new Set([
  'address', 'article', 'aside', 'blockquote', 'center', 'dd', 'details', 'dialog', 'dir', 'div', 'dl', 'dt', 'fieldset', 'figcaption',
  'figure', 'footer', 'form', 'h1', 'h2', 'h3', 'h4', 'h5', 'h6', 'header', 'hgroup', 'hr', 'li', 'listing', 'main', 'menu', 'nav', 'ol',
  'p', 'pre', 'search', 'section', 'summary', 'table', 'ul', 'xmp',
]);
const TABLE_PARTS = ['tbody', 'thead', 'tfoot'];
const IMPLIED_ENDS: Record<string, ImpliedEnd> = {
  li: { closes: ['li'], stops: ['ol', 'ul', 'menu', 'dir'] },
  dt: { closes: ['dt', 'dd'], stops: ['dl'] },
  dd: { closes: ['dt', 'dd'], stops: ['dl'] },
  option: { closes: ['option'], stops: ['select', 'datalist', 'optgroup'] },
  optgroup: { closes: ['optgroup', 'option'], stops: ['select'] },
  tr: { closes: ['tr', 'td', 'th'], stops: ['table', ...TABLE_PARTS] },
  td: { closes: ['td', 'th'], stops: ['tr', 'table'] },
  th: { closes: ['td', 'th'], stops: ['tr', 'table'] },
  ...Object.fromEntries(TABLE_PARTS.map((part) => [part, { closes: [...TABLE_PARTS, 'tr', 'td', 'th'], stops: ['table'] }])),
};

/**
 * Follows which elements are open, with the end tags HTML lets a page leave out (`<li>`, `<p>`,
 * `<td>`, `<option>`...), to know where protected content and `translate="no"` end. Protected
 * content collapses into one `keep` or `block` token with all its bytes; so does the content of
 * the elements `ignored` names (DeepL's `ignore_tags`), as if they said `translate="no"`.
 */
export function htmlFlow(html: string, ignored: ReadonlySet<string> = new Set()): FlowToken[] {
  const open: string[] = [];
  const flow: FlowToken[] = [];
  let guard: { start: number; depth: number; inline: boolean } | undefined;
  const truncate = (depth: number, at: number) => {
    open.length = depth;
    if (guard && depth < guard.depth) {
      flow.push({ kind: guard.inline ? 'keep' : 'block', start: guard.start, end: at });
      guard = undefined;
    }
  };

  for (const token of htmlTokens(html)) {
    if (token.kind === 'text' || token.kind === 'other') {
      if (!guard) flow.push({ kind: token.kind === 'text' ? 'text' : 'keep', start: token.start, end: token.end });
    } else if (token.kind === 'end') {
      const depth = open.lastIndexOf(token.name);
      if (guard) {
        // The end tag that closes protected content belongs to it.
        if (depth >= 0) truncate(depth, token.end);
        continue;
      }
      if (depth >= 0) open.length = depth;
      flow.push(INLINE.has(token.name) ? { kind: 'close', name: token.name, start: token.start, end: token.end } : { kind: 'block', start: token.start, end: token.end });
    } else {
      for (const rule of impliedEnds(token.name)) {
        const depth = impliedDepth(open, rule);
        if (depth !== undefined) truncate(depth, token.start);
      }
      // Inside protected content only nesting matters; foreign content (SVG, MathML) honours `/>`.
      const empty = VOID.has(token.name) || (guard !== undefined && token.selfClosing);
      if (!empty) open.push(token.name);
      if (guard) continue;
      const inline = INLINE.has(token.name) || INLINE_VOID.has(token.name) || PROTECTED_INLINE.has(token.name);
      const translateNo = token.attributes.find((attribute) => attribute.name === 'translate')?.value.trim().toLowerCase() === 'no';
      if (PROTECTED.has(token.name) || ignored.has(token.name) || translateNo) {
        if (empty) flow.push({ kind: inline ? 'keep' : 'block', start: token.start, end: token.end });
        else guard = { start: token.start, depth: open.length, inline };
        continue;
      }
      const kind = INLINE.has(token.name) && !empty ? 'open' : inline ? 'keep' : 'block';
      flow.push(kind === 'open' ? { kind, name: token.name, start: token.start, end: token.end, tag: token } : { kind, start: token.start, end: token.end, tag: token });
    }
  }
  if (guard) flow.push({ kind: guard.inline ? 'keep' : 'block', start: guard.start, end: html.length });
  return flow;
}

function impliedEnds(name: string): ImpliedEnd[] {
  return [...(ENDS_P.has(name) ? [END_P] : []), ...(IMPLIED_ENDS[name] ? [IMPLIED_ENDS[name]] : [])];
}

function impliedDepth(open: string[], rule: ImpliedEnd): number | undefined {
  for (let depth = open.length - 1; depth >= 0; depth--) {
    if (rule.closes.includes(open[depth])) return depth;
    if (rule.stops.includes(open[depth])) return undefined;
  }
  return undefined;
}
