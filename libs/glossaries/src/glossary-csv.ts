import { isEuLanguage } from '@platform/contracts';
import { ApiError } from '@platform/errors';
import type { Glossary } from './glossary.entity';
import { notAnEuLanguage, type GlossaryDraft } from './glossary-draft';

/** One CSV record and the physical line it starts on (quoted line breaks make them differ). */
export interface CsvRecord {
  line: number;
  fields: string[];
}

const atLine = (line: number, problem: string) => ApiError.invalidParameter(`line ${line}: ${problem}`);

const shown = (char: string) => (char === '\t' || char < ' ' ? JSON.stringify(char) : `"${char}"`);

/**
 * RFC 4180 records: comma-separated fields, records ending in CRLF (a lone LF or CR is accepted
 * as well), a field holding commas, quotes or line breaks enclosed in double quotes with each
 * quote inside doubled. Strict: a stray quote is an error naming its line rather than a guess.
 * A leading byte order mark is skipped.
 */
export function parseCsv(text: string): CsvRecord[] {
  const records: CsvRecord[] = [];
  const end = text.length;
  let i = text.startsWith('\uFEFF') ? 1 : 0;
  let line = 1;
  const atFieldEnd = () => i >= end || text[i] === ',' || text[i] === '\n' || text[i] === '\r';

  while (i < end) {
    const record: CsvRecord = { line, fields: [] };
    for (;;) {
      if (text[i] === '"') {
        const opened = line;
        let value = '';
        i++;
        for (;;) {
          if (i >= end) throw atLine(opened, 'unterminated quoted field');
          const char = text[i++];
          if (char === '"') {
            if (text[i] !== '"') break;
            i++;
          } else if (char === '\n' || (char === '\r' && text[i] !== '\n')) {
            line++;
          }
          value += char;
        }
        if (!atFieldEnd()) throw atLine(line, `unexpected ${shown(text[i])} after a closing quote`);
        record.fields.push(value);
      } else {
        const start = i;
        for (; !atFieldEnd(); i++) {
          if (text[i] === '"') throw atLine(line, 'a double quote inside an unquoted field; enclose the field in double quotes and double the quote');
        }
        record.fields.push(text.slice(start, i));
      }
      if (text[i] !== ',') break;
      i++;
    }
    if (text[i] === '\r') i++;
    if (text[i] === '\n') i++;
    line++;
    records.push(record);
  }
  return records;
}

function csvField(value: string): string {
  return /[",\r\n]/.test(value) ? `"${value.replaceAll('"', '""')}"` : value;
}

/** RFC 4180 text with CRLF line ends, quoting only the fields that need it. */
export function toCsv(rows: string[][]): string {
  return rows.map((row) => `${row.map(csvField).join(',')}\r\n`).join('');
}

const HEADER_EXAMPLE = 'e.g. term,de,fr';

/**
 * Spreadsheets run a cell starting with `=`, `+`, `-`, `@`, a tab or a CR as a formula (CSV
 * injection): the export puts an apostrophe before such a cell, as OWASP advises, and before one
 * that already starts with apostrophes followed by such a character, so that the import can drop
 * exactly one apostrophe from both and every value comes back as it was.
 */
const FORMULA_LIKE = /^'*[=+\-@\t\r]/;
export const defuseFormula = (value: string) => (FORMULA_LIKE.test(value) ? `'${value}` : value);
const restoreFormula = (value: string) => (value.startsWith("'") && FORMULA_LIKE.test(value) ? value.slice(1) : value);

/** The target languages named by the header row `term,<code>,<code>,...`. */
function headerLanguages({ line, fields }: CsvRecord, source: string): string[] {
  const [first, ...languages] = fields.map((field) => field.trim().toLowerCase());
  if (first !== 'term') {
    const separator = fields.length === 1 && /[;\t]/.test(first) ? '; fields are separated by commas' : '';
    throw atLine(line, `the header row must be "term" followed by one column per target language (${HEADER_EXAMPLE})${separator}`);
  }
  if (languages.length === 0) throw atLine(line, `the header row names no target language (${HEADER_EXAMPLE})`);
  languages.forEach((language, index) => {
    const column = `column ${index + 2}`;
    if (!isEuLanguage(language)) throw atLine(line, `${column}: ${notAnEuLanguage('language', language)}`);
    if (language === source) throw atLine(line, `${column}: "${language}" is the source language of the glossary, not a target`);
    if (languages.indexOf(language) !== index) throw atLine(line, `${column}: "${language}" appears twice`);
  });
  return languages;
}

/**
 * Reads a glossary upload: a header row `term,de,fr,...`, then one row per term. An empty cell
 * means no translation into that language; rows whose cells are all empty are skipped.
 */
export function glossaryFromCsv(text: string, name: string, source: string): GlossaryDraft {
  const [header, ...rows] = parseCsv(text).filter(({ fields }) => fields.some((field) => field.trim() !== ''));
  if (!header) throw ApiError.invalidParameter(`The CSV is empty: its first row must be the header (${HEADER_EXAMPLE})`);
  const languages = headerLanguages(header, source);
  return {
    name,
    source,
    entries: rows.map(({ line, fields }) => {
      if (fields.length !== header.fields.length) throw atLine(line, `${fields.length} fields where the header row has ${header.fields.length}`);
      const [term, ...cells] = fields.map(restoreFormula);
      const translations = Object.fromEntries(languages.map((language, k) => [language, cells[k]]).filter(([, text]) => text.trim() !== ''));
      return { at: `line ${line}`, term, translations };
    }),
  };
}

/**
 * The glossary as CSV: header `term,<targets sorted>`, one row per entry, empty cells where
 * untranslated, formula-like cells defused.
 */
export function glossaryToCsv({ targets, entries }: Pick<Glossary, 'targets' | 'entries'>): string {
  const rows = entries.map(({ term, translations }) => [term, ...targets.map((target) => translations[target] ?? '')].map(defuseFormula));
  return toCsv([['term', ...targets], ...rows]);
}
