import { decodeHTML } from 'entities';
import { Parser } from 'htmlparser2';
import type { GlossaryMatcher } from '../glossary/glossary-matcher';
import { escapeRegExp } from '../segments/escape-regexp';
import { Segment, type InlinePart } from '../segments/segment';
import { Layout, type LayoutItem } from './translatable-document';

/** Elements that sit inside a sentence: their tags travel with the words they enclose. */
const INLINE = new Set([
  'a', 'abbr', 'acronym', 'b', 'bdi', 'bdo', 'big', 'cite', 'code', 'data', 'del', 'dfn', 'em', 'font', 'i', 'ins', 'kbd',
  'label', 'mark', 'q', 's', 'samp', 'small', 'span', 'strike', 'strong', 'sub', 'sup', 'time', 'tt', 'u', 'var',
]);
/** Empty elements that can sit inside a sentence; each becomes one opaque placeholder. */
const INLINE_VOID = new Set(['br', 'img', 'input', 'wbr']);
/** Elements whose content is never translated. */
const PROTECTED = new Set(['script', 'style', 'code', 'pre', 'textarea']);
const ENTITY = /&(?:#\d+|#x[\da-f]+|[a-z][a-z\d]*);/gi;

type Token =
  | { kind: 'text' | 'keep' | 'block'; start: number; end: number }
  | { kind: 'open' | 'close'; name: string; start: number; end: number };

/**
 * HTML: translated text is written into the original bytes, never into a re-serialised DOM, so
 * tags, attributes, comments, the doctype and protected elements (`<script>`, `<style>`,
 * `<code>`, `<pre>`, `<textarea>`, anything with `translate="no"`) stay exactly as they were.
 * Each run of inline content between block boundaries is one segment; inline tags inside it
 * become `<g>` pairs, inline empty or protected elements `<x/>` placeholders. A long paragraph
 * stays one segment: cutting it could separate the two halves of a `<g>` pair.
 *
 * htmlparser2 is used as a tokenizer that reports source offsets and balances implied tags; it
 * builds no tree, so nothing is reordered the way an HTML5 tree builder would.
 */
export function htmlLayout(html: string, glossary?: GlossaryMatcher): Layout {
  const items: LayoutItem[] = [];
  const texts: string[] = [];
  let run: Token[] = [];

  const flush = () => {
    if (run.length === 0) return;
    const raw = html.slice(run[0].start, run.at(-1)!.end);
    const parts = run.map((token): InlinePart => {
      const bytes = html.slice(token.start, token.end);
      if (token.kind === 'text') {
        texts.push(bytes);
        return { kind: 'text', text: decodeHTML(bytes) };
      }
      return token.kind === 'open' || token.kind === 'close' ? { kind: token.kind, name: token.name, raw: bytes } : { kind: 'keep', raw: bytes };
    });
    items.push({ segment: new Segment(parts, glossary), raw });
    run = [];
  };

  for (const token of tokenize(html)) {
    if (token.kind === 'block') {
      flush();
      items.push(html.slice(token.start, token.end));
    } else {
      run.push(token);
    }
  }
  flush();
  return new Layout(items, entityEncoder(texts));
}

/**
 * Source-ordered tokens covering every byte of `html`: protected elements collapse into one
 * token with their whole subtree, and bytes the parser reports no event for (a stray end tag)
 * become opaque tokens of their own.
 */
function tokenize(html: string): Token[] {
  const events: Token[] = [];
  let guard: { start: number; end: number; depth: number; inline: boolean } | undefined;
  const range = () => ({ start: parser.startIndex, end: parser.endIndex + 1 });
  const opaque = () => {
    if (guard) guard.end = range().end;
    else events.push({ kind: 'keep', ...range() });
  };

  const parser = new Parser(
    {
      onopentag(name, attributes, implied) {
        if (guard) {
          guard.depth++;
          if (!implied) guard.end = range().end;
        } else if (PROTECTED.has(name) || attributes.translate?.trim().toLowerCase() === 'no') {
          guard = { ...range(), depth: 1, inline: INLINE.has(name) || INLINE_VOID.has(name) };
        } else if (!implied) {
          events.push(INLINE.has(name) ? { kind: 'open', name, ...range() } : { kind: INLINE_VOID.has(name) ? 'keep' : 'block', ...range() });
        }
      },
      onclosetag(name, implied) {
        if (guard) {
          if (!implied) guard.end = range().end;
          if (--guard.depth === 0) {
            events.push({ kind: guard.inline ? 'keep' : 'block', start: guard.start, end: guard.end });
            guard = undefined;
          }
        } else if (!implied) {
          events.push(INLINE.has(name) ? { kind: 'close', name, ...range() } : { kind: 'block', ...range() });
        }
      },
      ontext() {
        if (guard) guard.end = range().end;
        else events.push({ kind: 'text', ...range() });
      },
      oncommentend: opaque,
      onprocessinginstruction: opaque,
    },
    { decodeEntities: false },
  );
  parser.end(html);

  const tokens: Token[] = [];
  let cursor = 0;
  for (const event of events) {
    if (event.start > cursor) tokens.push({ kind: 'keep', start: cursor, end: event.start });
    if (event.end > Math.max(cursor, event.start)) tokens.push({ ...event, start: Math.max(cursor, event.start) });
    cursor = Math.max(cursor, event.end);
  }
  if (cursor < html.length) tokens.push({ kind: 'keep', start: cursor, end: html.length });
  return tokens;
}

/**
 * Escapes `&`, `<` and `>` in translated text and writes characters the source spelled as
 * entities (e.g. `&nbsp;`, `&copy;`) the same way again.
 */
function entityEncoder(texts: string[]): (text: string) => string {
  const spelling = new Map([
    ['&', '&amp;'],
    ['<', '&lt;'],
    ['>', '&gt;'],
  ]);
  for (const text of texts) {
    for (const [entity] of text.matchAll(ENTITY)) {
      const char = decodeHTML(entity);
      if (char !== entity && !/^[\p{L}\p{N} ]+$/u.test(char)) spelling.set(char, entity);
    }
  }
  const pattern = new RegExp(
    [...spelling.keys()]
      .sort((a, b) => b.length - a.length)
      .map(escapeRegExp)
      .join('|'),
    'gu',
  );
  return (text) => text.replace(pattern, (char) => spelling.get(char)!);
}
