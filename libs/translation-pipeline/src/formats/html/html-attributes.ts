import { decodeHTMLAttribute } from 'entities';
import type { SegmentTerms } from '../../segments/segment';
import type { Segment } from '../../segments/segment';
import { plainTextLayout, type TextNotation } from '../plain-text.format';
import type { Layout } from '../translatable-document';
import type { StartTag } from './html-flow';
import type { HtmlAttribute } from './html-tokens';
import type { InlineSentence, Markup, RenderContext } from '../inline-sentence';

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

export interface AttributeOptions {
  /** False leaves the values of text attributes alone. */
  translate: boolean;
  /** Writes translated text with the document's entities. */
  encode: (text: string) => string;
  terms?: SegmentTerms;
}

/**
 * A start tag outside protected content whose attribute values change: translatable attributes
 * (each value's bytes translated like a plain text with character references, counted and
 * billed; template syntax in them kept byte for byte) and `lang`/`xml:lang` naming the source
 * language. Only the values' bytes are replaced; the rest of the tag stays as sent.
 */
export class EditedTag implements Markup {
  readonly segments: Segment[];
  readonly words: number;
  readonly sentences: InlineSentence[];

  private constructor(
    private readonly html: string,
    private readonly tag: StartTag,
    private readonly edits: Edit[],
  ) {
    this.segments = edits.flatMap((edit) => edit.text?.segments ?? []);
    // What the values bill, not what they send: a value's inline elements are also sent alone.
    this.words = edits.reduce((sum, edit) => sum + (edit.text?.words ?? 0), 0);
    this.sentences = edits.flatMap((edit) => edit.text?.sentences.map(({ sentence }) => sentence) ?? []);
  }

  /** The tag's edits, or nothing when it has none. */
  static of(html: string, tag: StartTag, { translate, encode, terms }: AttributeOptions): EditedTag | undefined {
    const seen = new Set<string>();
    const edits: Edit[] = [];
    for (const attribute of tag.attributes) {
      // Browsers ignore a repeated attribute; so does translation.
      if (seen.has(attribute.name) || !attribute.hasValue) continue;
      seen.add(attribute.name);
      if (LANGUAGE_ATTRIBUTES.has(attribute.name)) edits.push({ attribute });
      else if (translate && translatable(tag, attribute)) {
        const notation: TextNotation = { decode: decodeHTMLAttribute, encode: (text) => encodeAttribute(encode(text), attribute.quote), references: true };
        const text = plainTextLayout(html.slice(attribute.valueStart, attribute.valueEnd), terms, notation);
        if (text.segments.length > 0) edits.push({ attribute, text });
      }
    }
    return edits.length > 0 ? new EditedTag(html, tag, edits) : undefined;
  }

  render(context: RenderContext): string {
    let output = '';
    let cursor = this.tag.start;
    for (const { attribute, text } of this.edits) {
      const value = text ? translatedValue(text, context) : languageValue(attribute, context);
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

function translatedValue(text: Layout, context: RenderContext): string | undefined {
  if (!text.segments.some((segment) => context.results.has(segment))) return undefined;
  return text.render(context.results, context.languages);
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
