import { decodeHTML } from 'entities';
import { escapeRegExp } from '../segments/escape-regexp';
import type { Segment, SegmentTerms } from '../segments/segment';
import { EditedTag } from './html/html-attributes';
import { htmlFlow, type FlowToken } from './html/html-flow';
import { InlineSentence, type Markup, type SentencePart } from './inline-sentence';
import type { DocumentLanguages, DocumentSentence, SegmentResults, TranslatableDocument } from './translatable-document';

export interface HtmlOptions {
  terms?: SegmentTerms;
  /** Translate `alt`, `title`, `placeholder`, `aria-label`, `aria-description` and button labels; default true. */
  attributes?: boolean;
  /** Elements whose content is kept as it is, like `translate="no"` (lower-case names). */
  ignoreTags?: readonly string[];
}

const ENTITY = /&(?:#\d+|#x[\da-f]+|[a-z][a-z\d]*);/gi;
/** Where `&`, `<` and `>` (with the character after them) may stay bare: never where they would begin a reference or a tag. */
const BARE_SAFE = new Map([
  ['&', /^&[^A-Za-z0-9#]$/],
  ['<', /^<[^A-Za-z/!?]$/],
  ['>', /^>/],
]);

/**
 * HTML: translated text is written into the original bytes, never into a re-serialised DOM, so
 * tags, comments, the doctype, template syntax and protected elements (`<script>`, `<style>`,
 * `<code>`, `<kbd>`, `<samp>`, `<tt>`, `<var>`, `<pre>`, `<textarea>`, `<svg>`, `<math>`,
 * `<iframe>`, anything with `translate="no"`) stay exactly as they were; only text and the
 * values of translatable attributes and `lang` change. Each run of inline content between two
 * sentence boundaries (any element that is not inline, `<br>` included) is one sentence: see
 * InlineSentence. Template syntax in text is an opaque part of its sentence.
 */
export function htmlLayout(html: string, options: HtmlOptions = {}): TranslatableDocument {
  const { terms, attributes = true, ignoreTags = [] } = options;
  const items: Markup[] = [];
  /** What holds segments, in document order: sentences and tags with translated attributes. */
  const translatable: (InlineSentence | EditedTag)[] = [];
  const flow = htmlFlow(html, new Set(ignoreTags));
  const encode = entityEncoder(flow.flatMap((token) => (token.kind === 'text' ? [html.slice(token.start, token.end)] : [])));
  let run: SentencePart[] = [];

  const flush = () => {
    if (run.length === 0) return;
    const sentence = new InlineSentence(run, terms, decodeHTML);
    items.push(sentence);
    translatable.push(sentence);
    run = [];
  };
  const markup = (token: Exclude<FlowToken, { kind: 'text' }>): Markup => {
    const edited = token.tag && EditedTag.of(html, token.tag, { translate: attributes, encode, terms });
    if (edited) translatable.push(edited);
    const bytes = html.slice(token.start, token.end);
    return edited ?? { render: () => bytes };
  };

  for (const token of flow) {
    if (token.kind === 'text') {
      run.push({ kind: 'text', bytes: html.slice(token.start, token.end) });
    } else if (token.kind === 'block') {
      flush();
      items.push(markup(token));
    } else {
      const part = markup(token);
      const render = part.render.bind(part);
      run.push(token.kind === 'keep' ? { kind: 'keep', render } : { kind: token.kind, name: token.name, render });
    }
  }
  flush();
  return new HtmlDocument(items, translatable, encode);
}

class HtmlDocument implements TranslatableDocument {
  readonly segments: readonly Segment[];
  readonly words: number;
  /** Never whole: a sentence of HTML is a piece of a page. */
  readonly sentences: readonly DocumentSentence[];

  constructor(
    private readonly items: Markup[],
    translatable: (InlineSentence | EditedTag)[],
    private readonly encode: (text: string) => string,
  ) {
    this.segments = translatable.flatMap((item) => item.segments);
    this.words = translatable.reduce((sum, item) => sum + item.words, 0);
    this.sentences = translatable.flatMap((item) => item.sentences).map((sentence) => ({ sentence, path: '', whole: false }));
  }

  render(results: SegmentResults, languages: DocumentLanguages): string {
    return this.items.map((item) => item.render({ results, languages, encode: this.encode })).join('');
  }
}

/**
 * Writes translated text as the source wrote its characters. `&`, `<` and `>` are escaped,
 * unless the source wrote them bare more often than as references (clients of DeepL's XML and
 * HTML handling send `Canvas & Shape`), and only where a bare one cannot begin a character
 * reference or markup: `&` before a letter, a digit or `#`, `<` before a letter, `/`, `!` or
 * `?`, and either at the end of a piece of text (what follows is not known) are escaped all the
 * same. Other characters the source spelled as entities (e.g. `&nbsp;`, `&copy;`) are spelled
 * the same way again.
 */
function entityEncoder(texts: string[]): (text: string) => string {
  const spelling = new Map([
    ['&', '&amp;'],
    ['<', '&lt;'],
    ['>', '&gt;'],
  ]);
  const written = new Map([...BARE_SAFE.keys()].map((char) => [char, { bare: 0, escaped: 0 }]));
  for (const text of texts) {
    for (const [entity] of text.matchAll(ENTITY)) {
      const char = decodeHTML(entity);
      if (char === entity || /^[\p{L}\p{N} ]+$/u.test(char)) continue;
      spelling.set(char, entity);
      const count = written.get(char);
      if (count) count.escaped++;
    }
    for (const [char] of text.replace(ENTITY, '').matchAll(/[&<>]/g)) written.get(char)!.bare++;
  }
  const bare = new Set([...written].flatMap(([char, { bare, escaped }]) => (bare > escaped ? [char] : [])));
  const pattern = new RegExp(
    [...spelling.keys()]
      .sort((a, b) => b.length - a.length)
      .map(escapeRegExp)
      .join('|'),
    'gu',
  );
  return (text) =>
    text.replace(pattern, (char: string, offset: number) => (bare.has(char) && BARE_SAFE.get(char)!.test(text.slice(offset, offset + 2)) ? char : spelling.get(char)!));
}
