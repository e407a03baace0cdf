import { parse, TYPE, type MessageFormatElement } from '@formatjs/icu-messageformat-parser';

/**
 * What a localisation file's strings hold besides words, found here with expressions of their
 * own (not the pipeline's): the corpus check compares them between source and translation and
 * counts words without them.
 */
const TEMPLATE_PATTERNS = [
  /\{\{!--[\s\S]*?--\}\}/, // Handlebars comment, which may hold `}}`
  /\{\{\{[\s\S]*?\}\}\}/, // Handlebars raw output
  // Handlebars, Mustache, Jinja output, i18next interpolation; quoted strings may hold `}}` or `{{`.
  /\{\{(?:"[^"]*"|'[^']*'|[^"'}]|\}(?!\}))*\}\}/,
  /\{%(?:"[^"]*"|'[^']*'|[^"'%]|%(?!\}))*%\}/, // Jinja, Django, Liquid tags
  /\{#[\s\S]*?#\}/, // Jinja comments
  /<%[\s\S]*?%>/, // EJS, ERB
  /@(?:\.[a-z]+)?:(?:[\w.-]*\w|\([\w.-]+\)|\{'[^']*'\})/, // vue-i18n linked messages
  /\$t\([^()]*(?:\([^()]*\)[^()]*)*\)/, // i18next nesting
  /%\{\w+\}|%<\w+>[a-z]/, // Rails
  /\$[A-Za-z0-9_@]+\$/, // WebExtension placeholders
  /%(?:\d+\$)?[-+0#]*\d*(?:\.\d+)?(?:ll|l|h)?[sdifuxXeEgGcp@%]/, // printf
  /\{[\w.$-]+\}/, // simple named or numbered arguments
];
const MARKUP_PATTERNS = [
  /<!--[\s\S]*?-->/, // comments
  /<\/?[A-Za-z][^<>]*>/, // tags
  /<\/?\d{1,3}\s*\/?>/, // numbered tags of i18next's Trans component
  /&(?:#\d+|#x[\da-fA-F]+|[A-Za-z][A-Za-z\d]*);/, // character references
];
const alternatives = (patterns: RegExp[]) => new RegExp(patterns.map((pattern) => pattern.source).join('|'), 'g');
const SYNTAX = alternatives([...TEMPLATE_PATTERNS, ...MARKUP_PATTERNS]);
const TEMPLATE = alternatives(TEMPLATE_PATTERNS);
const ICU = /\{\s*[\w.]+\s*,\s*(?:plural|select|selectordinal)\s*,/;
const words = new Intl.Segmenter('en', { granularity: 'word' });

/**
 * The syntax tokens of a string, sorted: equal lists mean the same placeholders, tags and template
 * code. In an ICU message with plural or select, those of its texts and its simple arguments: the
 * `{{` of `other{{count} items}` opens an argument in a message, not a template tag.
 */
export function syntaxOf(text: string): string[] {
  const tokens = ICU.test(text)
    ? icuElements(text).flatMap((element) => (element.type === TYPE.literal ? (element.value.match(SYNTAX) ?? []) : element.type === TYPE.argument ? [`{${element.value}}`] : []))
    : (text.match(SYNTAX) ?? []);
  return [...tokens].sort();
}

/** Template code and placeholders only, sorted: for a whole page, where attribute values are translated inside tags. */
export function templateCodeOf(text: string): string[] {
  return [...(text.match(TEMPLATE) ?? [])].sort();
}

/** The text with each piece of template code replaced by `mark`: what an HTML parser may read without taking `'</tr><tr>'` in a template tag for markup. */
export function withoutTemplateCode(text: string, mark: string): string {
  return text.replace(TEMPLATE, mark);
}

/** The message's structure when it is ICU with plural or select (argument names, types, selectors, nesting), its texts left out. */
export function icuSkeleton(text: string): string | undefined {
  if (!ICU.test(text)) return undefined;
  return JSON.stringify(parse(text, { ignoreTag: true }), (key, value) => (key === 'location' ? undefined : key === 'value' && typeof value === 'string' ? undefined : value));
}

/** The words of the human-readable text, as Unicode word segmentation counts them, syntax of every kind left out. */
export function wordsOf(text: string): number {
  const readable = literalTexts(text).join(' ').replace(SYNTAX, ' ');
  let count = 0;
  for (const segment of words.segment(readable)) if (segment.isWordLike) count++;
  return count;
}

/** The literal texts of an ICU message (every branch), or the text itself when it is not one. */
function literalTexts(text: string): string[] {
  if (!ICU.test(text)) return [text];
  return icuElements(text).map((element) => (element.type === TYPE.literal ? element.value : ' '));
}

/** The elements of an ICU message other than its choices, those of every branch included, in order. */
function icuElements(text: string): MessageFormatElement[] {
  const found: MessageFormatElement[] = [];
  const walk = (elements: MessageFormatElement[]) => {
    for (const element of elements) {
      if (element.type === TYPE.plural || element.type === TYPE.select) for (const option of Object.values(element.options)) walk(option.value);
      else found.push(element);
    }
  };
  walk(parse(text, { ignoreTag: true }));
  return found;
}
