import { decodeHTML } from 'entities';
import type { GlossaryMatcher } from '../glossary/glossary-matcher';
import { escapeRegExp } from '../segments/escape-regexp';
import type { Segment } from '../segments/segment';
import { EditedTag } from './html/html-attributes';
import { htmlFlow, type FlowToken } from './html/html-flow';
import { InlineSentence, type Markup, type SentencePart } from './inline-sentence';
import type { DocumentLanguages, SegmentResults, TranslatableDocument } from './translatable-document';

export interface HtmlOptions {
  glossary?: GlossaryMatcher;
  /** Translate `alt`, `title`, `placeholder`, `aria-label`, `aria-description` and button labels; default true. */
  attributes?: boolean;
}

const ENTITY = /&(?:#\d+|#x[\da-f]+|[a-z][a-z\d]*);/gi;

/**
 * HTML: translated text is written into the original bytes, never into a re-serialised DOM, so
 * tags, comments, the doctype and protected elements (`<script>`, `<style>`, `<code>`, `<pre>`,
 * `<textarea>`, `<svg>`, `<math>`, `<iframe>`, anything with `translate="no"`) stay exactly as
 * they were; only text and the values of translatable attributes and `lang` change. Each run of
 * inline content between two sentence boundaries (any element that is not inline, `<br>`
 * included) is one sentence: see InlineSentence.
 */
export function htmlLayout(html: string, options: HtmlOptions = {}): TranslatableDocument {
  const { glossary, attributes = true } = options;
  const items: Markup[] = [];
  /** What holds segments, in document order: sentences and tags with translated attributes. */
  const translatable: (InlineSentence | EditedTag)[] = [];
  const texts: string[] = [];
  let run: SentencePart[] = [];

  const flush = () => {
    if (run.length === 0) return;
    const sentence = new InlineSentence(run, glossary, decodeHTML);
    items.push(sentence);
    translatable.push(sentence);
    run = [];
  };
  const markup = (token: Exclude<FlowToken, { kind: 'text' }>): Markup => {
    const edited = token.tag && EditedTag.of(html, token.tag, attributes, glossary);
    if (edited) translatable.push(edited);
    const bytes = html.slice(token.start, token.end);
    return edited ?? { render: () => bytes };
  };

  for (const token of htmlFlow(html)) {
    if (token.kind === 'text') {
      const bytes = html.slice(token.start, token.end);
      texts.push(bytes);
      run.push({ kind: 'text', bytes });
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
  return new HtmlDocument(items, translatable, entityEncoder(texts));
}

class HtmlDocument implements TranslatableDocument {
  readonly segments: readonly Segment[];
  readonly words: number;

  constructor(
    private readonly items: Markup[],
    translatable: (InlineSentence | EditedTag)[],
    private readonly encode: (text: string) => string,
  ) {
    this.segments = translatable.flatMap((item) => item.segments);
    this.words = translatable.reduce((sum, item) => sum + item.words, 0);
  }

  render(results: SegmentResults, languages: DocumentLanguages): string {
    return this.items.map((item) => item.render({ results, languages, encode: this.encode })).join('');
  }
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
