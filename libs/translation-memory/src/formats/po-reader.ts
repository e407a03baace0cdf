import { ApiError } from '@platform/errors';
import { po, type GetTextTranslations } from 'gettext-parser';
import { Readable } from 'node:stream';
import { tokensOfPlainText } from '../inline-text';
import { breathe, BYTES_PER_SLICE, languageOf, skip, UNITS_PER_SLICE, type MemoryFile, type ReadOptions } from './memory-file';

const invalid = (message: string) => ApiError.invalidParameter(`The PO file is invalid: ${message}`);
/** How much of a msgid a message quotes. */
const QUOTED = 60;

/**
 * Gettext PO: every translated `msgid`/`msgstr` gives one entry, its strings read like plain
 * text (variables and markup become placeholders). A PO file does not name its source language,
 * so the memory's or `?source=` does; the target is the header's `Language` or `?target=`.
 * Left out: entries with plural forms (`msgid_plural`), whose forms do not correspond one to one
 * between languages; entries marked `fuzzy`, which are unchecked guesses; untranslated and
 * obsolete ones. `msgctxt` is not kept: a memory matches on the text alone.
 */
export async function readPo(bytes: Uint8Array, options: ReadOptions): Promise<MemoryFile> {
  let parsed: GetTextTranslations;
  try {
    parsed = await parse(bytes);
  } catch (error) {
    throw invalid(parseProblem(error as Error & { lineNumber?: number }));
  }
  const sourceLang = options.source;
  if (!sourceLang) throw invalid('a PO file does not say its source language; give the memory a source language or pass ?source=');
  // A file without a header entry has no headers at all.
  const language = parsed.headers?.Language;
  const targetLang = options.target ?? languageOf(language);
  if (!targetLang) {
    throw invalid(language ? `the header's Language "${language}" is not one of the 24 official EU languages` : 'the header names no Language; pass ?target=');
  }

  const file: MemoryFile = { format: 'po', units: [], skipped: {}, tool: parsed.headers?.['X-Generator'] || undefined };
  let count = 0;
  for (const messages of Object.values(parsed.translations)) {
    for (const [msgid, message] of Object.entries(messages)) {
      if (++count % UNITS_PER_SLICE === 0) await breathe();
      if (msgid === '') continue;
      const flags = (message.comments?.flag ?? '').split(/,\s*/);
      if (message.msgid_plural !== undefined) skip(file, 'plural');
      else if (flags.includes('fuzzy')) skip(file, 'fuzzy');
      else if (!message.msgstr[0]?.trim()) skip(file, 'untranslated');
      else {
        const at = `msgid "${msgid.length > QUOTED ? `${msgid.slice(0, QUOTED)}…` : msgid}"`;
        file.units.push({ at, sourceLang, targetLang, source: tokensOfPlainText(msgid), target: tokensOfPlainText(message.msgstr[0]) });
      }
    }
  }
  return file;
}

/**
 * The parsed file. Its stream parser reads a slice at a time and lets other requests run in
 * between. Strict: a string left open or a repeated msgid is an error, as msgfmt has it, rather
 * than a guess. A file that names no charset is read as UTF-8, not as the parser's Latin-1.
 */
function parse(bytes: Uint8Array): Promise<GetTextTranslations> {
  if (bytes.length === 0) return Promise.reject(new Error('the file is empty'));
  return new Promise((resolve, reject) => {
    const parser = po.createParseStream({ validation: true, defaultCharset: 'utf-8' });
    parser.on('data', resolve).on('error', reject).on('end', () => reject(new Error('the file holds no PO entries')));
    const slices = function* () {
      for (let start = 0; start < bytes.length; start += BYTES_PER_SLICE) yield Buffer.from(bytes.buffer, bytes.byteOffset + start, Math.min(BYTES_PER_SLICE, bytes.length - start));
    };
    Readable.from(slices(), { objectMode: false }).pipe(parser);
  });
}

/**
 * The parser's message without its prefix. It counts a line break before it looks at it, so a
 * string that runs into the end of its line is reported on the line after; that one is put right.
 */
function parseProblem(error: Error & { lineNumber?: number }): string {
  const message = error.message.replace(/^Error parsing PO data: /, '');
  if (!message.startsWith('End-of-line within string') || !error.lineNumber) return message;
  return `line ${error.lineNumber - 1}: a string is not closed on its line; a string spanning lines is written as one quoted string per line, with "\\n" for its line breaks`;
}
