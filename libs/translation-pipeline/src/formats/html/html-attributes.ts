import type { GlossaryMatcher } from '../../glossary/glossary-matcher';
import type { Segment } from '../../segments/segment';
import { plainTextLayout } from '../plain-text.format';
import type { Layout } from '../translatable-document';
import type { StartTag } from './html-flow';
import type { HtmlAttribute } from './html-tokens';
import type { Markup, RenderContext } from '../inline-sentence';

/** Attributes whose value is text for people, on any element. */
const TEXT_ATTRIBUTES = new Set(['alt', 'title', 'placeholder', 'aria-label', 'aria-description']);
/** `<input>` types whose `value` is the button's label. */
const BUTTON_INPUTS = new Set(['button', 'submit', 'reset']);
/** Where `title` names something for machines: the style sheet set of `<link>` and `<style>`. */
const TITLE_IS_A_NAME = new Set(['link', 'style']);
const LANGUAGE_ATTRIBUTES = new Set(['lang', 'xml:lang']);

interface Edit {
  attribute: HtmlAttribute;
  /** The translatable value; absent for a language attribute. */
  text?: Layout;
}

/**
 * A start tag outside protected content whose attribute values change: translatable attributes
 * (each value translated like a plain text, counted and billed) and `lang`/`xml:lang` naming the
 * source language. Only the values' bytes are replaced; the rest of the tag stays as sent.
 */
export class EditedTag implements Markup {
  readonly segments: Segment[];
  readonly words: number;

  private constructor(
    private readonly html: string,
    private readonly tag: StartTag,
    private readonly edits: Edit[],
  ) {
    this.segments = edits.flatMap((edit) => edit.text?.segments ?? []);
    this.words = this.segments.reduce((sum, segment) => sum + segment.words, 0);
  }

  /** The tag's edits, or nothing when it has none; `translate` false leaves the values of text attributes alone. */
  static of(html: string, tag: StartTag, translate: boolean, glossary?: GlossaryMatcher): EditedTag | undefined {
    const seen = new Set<string>();
    const edits: Edit[] = [];
    for (const attribute of tag.attributes) {
      // Browsers ignore a repeated attribute; so does translation.
      if (seen.has(attribute.name) || !attribute.hasValue) continue;
      seen.add(attribute.name);
      if (LANGUAGE_ATTRIBUTES.has(attribute.name)) edits.push({ attribute });
      else if (translate && translatable(tag, attribute)) {
        const text = plainTextLayout(attribute.value, glossary);
        if (text.segments.length > 0) edits.push({ attribute, text });
      }
    }
    return edits.length > 0 ? new EditedTag(html, tag, edits) : undefined;
  }

  render(context: RenderContext): string {
    let output = '';
    let cursor = this.tag.start;
    for (const { attribute, text } of this.edits) {
      const value = text ? translatedValue(text, attribute, context) : languageValue(attribute, context);
      if (value === undefined) continue;
      output += this.html.slice(cursor, attribute.valueStart) + value;
      cursor = attribute.valueEnd;
    }
    return output + this.html.slice(cursor, this.tag.end);
  }
}

function translatable(tag: StartTag, attribute: HtmlAttribute): boolean {
  if (attribute.name === 'title') return !TITLE_IS_A_NAME.has(tag.name);
  if (attribute.name === 'value') {
    const type = tag.attributes.find((candidate) => candidate.name === 'type')?.value.trim().toLowerCase();
    return tag.name === 'input' && BUTTON_INPUTS.has(type ?? '');
  }
  return TEXT_ATTRIBUTES.has(attribute.name);
}

function translatedValue(text: Layout, attribute: HtmlAttribute, context: RenderContext): string | undefined {
  if (!text.segments.some((segment) => context.results.has(segment))) return undefined;
  return encodeAttribute(context.encode(text.render(context.results, context.languages)), attribute.quote);
}

/** `lang="en-GB"` in an English source becomes the target's code; other languages stay as marked. */
function languageValue(attribute: HtmlAttribute, context: RenderContext): string | undefined {
  const primary = attribute.value.trim().split(/[-_]/)[0].toLowerCase();
  return primary === context.languages.source.toLowerCase() ? context.languages.target : undefined;
}

const QUOTE_ESCAPES: Record<string, string> = { '"': '&quot;', "'": '&#39;', '=': '&#61;', '`': '&#96;', ' ': '&#32;', '\t': '&#9;', '\n': '&#10;', '\r': '&#13;', '\f': '&#12;' };

/** Escapes what would end the value in its quoting: the quote itself, or for an unquoted value whitespace, quotes, `=` and backticks. */
function encodeAttribute(encoded: string, quote: HtmlAttribute['quote']): string {
  const special = quote === '' ? /[\t\n\f\r "'=`]/g : new RegExp(quote, 'g');
  return encoded.replace(special, (char) => QUOTE_ESCAPES[char] ?? `&#${char.codePointAt(0)};`);
}
