import { mo } from 'gettext-parser';
import { hasNonXmlCharacter, type InlineToken, maskPair, tokensOfPlainText } from '../inline-text';
import { memoryKey } from '../memory-key';
import { normaliseKey, normaliseTarget } from './catalog-key';

/** Longest normalised key kept: the catalog answers whole short texts, never paragraphs. */
export const MAX_CATALOG_KEY_LENGTH = 200;

/** Why a message of a catalog gives no entry. */
export type CatalogSkip = 'plural' | 'untranslated' | 'long' | 'placeholders' | 'credits' | 'no_text' | 'unreadable_text';

/** A message as an entry: normalised key and translation, masked, codes in the key's canonical numbering. */
export interface CatalogPair {
  key: string;
  target: string;
}

/** Translators' names where programs ask for them: no translation of the English string. */
const CREDITS = new Set(['translator-credits', 'translator_credits', 'TRANSLATOR-CREDITS', 'Your names', 'Your emails', 'NAME OF TRANSLATORS', 'EMAIL OF TRANSLATORS']);

const PLACEHOLDER_ID = /<(?:x|g) id="(\d+)"/g;
const placeholderIds = (masked: string) => [...masked.matchAll(PLACEHOLDER_ID)].map((match) => match[1]).sort();

const PRINTF = /^%(?:(\d+)\$)?(?!%)/;

/** A mnemonic inside a word (`Ö_ffnen`, `Sp_eichern`), the string's only underscore. */
const INNER_ACCELERATOR = /(?<=[\p{L}\p{N}])_(?=[\p{L}\p{N}])/u;
/** A word of lower-case ASCII letters and digits around an underscore: an identifier (`file_name`), whose underscore stays. */
const SNAKE_CASE = /(?<![\p{L}\p{N}])[a-z0-9]+_[a-z0-9]+(?![\p{L}\p{N}])/u;

/**
 * The string without a mnemonic inside a word. The pipeline reads letters joined by `_` as an
 * identifier and masks it whole, so the key's own normalisation (which takes `_Save`'s marker)
 * would never see that one: it goes before masking.
 */
function withoutInnerAccelerator(text: string): string {
  return text.split('_').length === 2 && INNER_ACCELERATOR.test(text) && !SNAKE_CASE.test(text) ? text.replace('_', '') : text;
}

/**
 * Ties each printf conversion to the argument it prints: `%s` and `%d` take the arguments in
 * order, `%2$d` names the second. A translation that reorders them (`%2$d … %1$s` for
 * `%s … %d`) then gets each placeholder of the conversion it stands for.
 */
function tieArguments(tokens: InlineToken[]): InlineToken[] {
  let next = 0;
  return tokens.map((token) => {
    const printf = token.kind === 'code' ? PRINTF.exec(token.raw) : null;
    if (!printf) return token;
    next++;
    return { ...token, ref: `printf ${printf[1] ?? next}` };
  });
}

/**
 * One message as the pipeline would see it: both strings cut into text and codes as any plain
 * text sent to the API (`%s`, `%1$s`, `{0}`, markup become placeholders), the translation's
 * codes numbered as the source's they stand for, then the catalog's normalisation. A translation whose
 * codes are not exactly the source's (one dropped, one added) is no answer the pipeline could use.
 */
export function catalogPair(msgid: string, msgstr: string): CatalogPair | CatalogSkip {
  if (CREDITS.has(msgid)) return 'credits';
  if (hasNonXmlCharacter(msgid + msgstr)) return 'unreadable_text';
  const { source, target } = maskPair(tieArguments(tokensOfPlainText(withoutInnerAccelerator(msgid))), tieArguments(tokensOfPlainText(withoutInnerAccelerator(msgstr))));
  const normal = normaliseKey(memoryKey(source.text));
  if (normal.key.length > MAX_CATALOG_KEY_LENGTH) return 'long';
  if (!/[\p{L}\p{N}]/u.test(normal.key.replace(/<[^>]*>/g, ''))) return 'no_text';
  const translation = normaliseTarget(target.text.normalize('NFC'), normal.form);
  if (translation === '') return 'untranslated';
  const sourceIds = placeholderIds(normal.key);
  const targetIds = placeholderIds(translation);
  if (sourceIds.length !== targetIds.length || sourceIds.some((id, i) => id !== targetIds[i])) return 'placeholders';
  return { key: normal.key, target: translation };
}

/**
 * The messages of a compiled catalog as pairs. Plural messages give none: which of a
 * translation's forms is the singular differs by language (Slovenian's is the second), and a
 * count-bound phrase is no whole interface text. Contexts (msgctxt) only tell uses of one string
 * apart, so every context's translation is read. Compiled catalogs hold no fuzzy translations.
 */
export function* readCatalog(buffer: Buffer): Generator<CatalogPair | CatalogSkip> {
  const catalog = mo.parse(buffer);
  for (const messages of Object.values(catalog.translations)) {
    for (const message of Object.values(messages)) {
      if (message.msgid === '') continue;
      if (message.msgid_plural) yield 'plural';
      else if (!message.msgstr[0]) yield 'untranslated';
      else yield catalogPair(message.msgid, message.msgstr[0]);
    }
  }
}
