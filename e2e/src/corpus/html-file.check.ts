import { Parser } from 'htmlparser2';
import { expect } from 'vitest';
import { syntaxOf, templateCodeOf, withoutTemplateCode, wordsOf } from './corpus-syntax';

/** Elements whose content is never translated. */
const PROTECTED = new Set(['script', 'style', 'code', 'pre', 'textarea', 'tt', 'kbd', 'samp', 'var', 'svg', 'math', 'iframe', 'noembed', 'noframes', 'xmp']);
/** Attributes whose value is text for people. */
const TEXT_ATTRIBUTES = new Set(['alt', 'title', 'placeholder', 'aria-label', 'aria-description']);
const BUTTON_INPUTS = new Set(['button', 'submit', 'reset']);
const LANGUAGE_ATTRIBUTES = new Set(['lang', 'xml:lang']);

const TEMPLATE_MARK = '\u2063';

type Token = { kind: 'tag'; text: string } | { kind: 'kept'; text: string } | { kind: 'text'; text: string };

/** A page as htmlparser2 reads it: tags (translatable attribute values as their syntax only), kept content exactly, and translatable text. */
function tokens(html: string): { tokens: Token[]; translatable: string[] } {
  const list: Token[] = [];
  const translatable: string[] = [];
  const open: { name: string; guards: boolean }[] = [];
  const guarded = () => open.some((element) => element.guards);
  const parser = new Parser(
    {
      onopentag(name, attributes) {
        const shown = Object.entries(attributes).map(([attribute, value]) => {
          if (guarded() || !isTextAttribute(name, attribute, attributes)) return LANGUAGE_ATTRIBUTES.has(attribute) && !guarded() ? `${attribute}=<lang>` : `${attribute}=${JSON.stringify(value)}`;
          translatable.push(value);
          return `${attribute}≈${JSON.stringify(syntaxOf(value))}`;
        });
        list.push({ kind: 'tag', text: `<${name} ${shown.join(' ')}>` });
        open.push({ name, guards: PROTECTED.has(name) || attributes.translate?.trim().toLowerCase() === 'no' });
      },
      onclosetag(name, implied) {
        list.push({ kind: 'tag', text: `</${name}${implied ? ' implied' : ''}>` });
        const index = open.map((element) => element.name).lastIndexOf(name);
        if (index >= 0) open.length = index;
      },
      ontext(text) {
        const last = list.at(-1);
        const kind = guarded() ? 'kept' : 'text';
        if (last?.kind === kind) last.text += text;
        else list.push({ kind, text });
      },
      oncomment(comment) {
        list.push({ kind: 'kept', text: `<!--${comment}-->` });
      },
      onprocessinginstruction(_, data) {
        list.push({ kind: 'kept', text: `<${data}>` });
      },
    },
    { decodeEntities: true, lowerCaseAttributeNames: true },
  );
  // Template code is compared on its own (`templateCodeOf`); here it is one opaque mark that counts no words.
  parser.end(withoutTemplateCode(html, TEMPLATE_MARK));
  for (const token of list) if (token.kind === 'text') translatable.push(token.text);
  return { tokens: list, translatable };
}

function isTextAttribute(element: string, attribute: string, attributes: Record<string, string>): boolean {
  if (attribute === 'title') return element !== 'link' && element !== 'style';
  if (attribute === 'value') return element === 'input' && BUTTON_INPUTS.has(attributes.type?.trim().toLowerCase() ?? '');
  return TEXT_ATTRIBUTES.has(attribute);
}

/** Words a translation of the page is billed for, counted without the pipeline. */
export function htmlFileWords(source: string): number {
  return tokens(source).translatable.reduce((sum, text) => sum + wordsOf(text), 0);
}

/**
 * A translated page against its source, token for token: the same tags with the same
 * attributes (translatable values may change, their placeholders may not; `lang` may name the
 * target), comments, doctype and protected content byte for byte, and in each stretch of text
 * the same template code and placeholders. Returns how many stretches with words changed, out of
 * how many.
 */
export function expectIntactHtml(source: string, translated: string): { changed: number; of: number } {
  const before = tokens(source).tokens;
  const after = tokens(translated).tokens;
  expect(after.map((token) => (token.kind === 'text' ? 'text' : token.text))).toEqual(before.map((token) => (token.kind === 'text' ? 'text' : token.text)));
  let changed = 0;
  let of = 0;
  before.forEach((token, index) => {
    if (token.kind !== 'text') return;
    const translation = after[index].text;
    expect(syntaxOf(translation), `${JSON.stringify(token.text)} → ${JSON.stringify(translation)}`).toEqual(syntaxOf(token.text));
    if (wordsOf(token.text) > 0) {
      of++;
      if (translation !== token.text) changed++;
    }
  });
  expect(templateCodeOf(translated)).toEqual(templateCodeOf(source));
  return { changed, of };
}
