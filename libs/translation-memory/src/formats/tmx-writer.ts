import { escapeText, type InlineCodes } from '../inline-text';
import type { MemoryEntry } from '../memory-entry.entity';
import { maskedParts } from '../memory-key';

/** Written into the header; a TMX file names the tool that made it. */
const TOOL = 'eu-translation-api';

/** TMX's date form: 20241231T235959Z. */
const tmxDate = (date: Date) => date.toISOString().replace(/[-:]/g, '').replace(/\.\d+/, '');

/**
 * A memory as TMX 1.4b, streamed page by page. Codes are written as `<ph>` and `<bpt>`/`<ept>`
 * holding their originals, with `x` set to the placeholder id in source and target alike, so
 * that reading the file back ties each target code to its source code and gives the same
 * entries. Origin and provenance go into `<prop>`s for the reader's information.
 */
export async function* tmxDocument(memory: { name: string; source: string | null }, pages: AsyncIterable<MemoryEntry[]>): AsyncGenerator<string> {
  yield '<?xml version="1.0" encoding="UTF-8"?>\n<tmx version="1.4">\n';
  yield `  <header creationtool="${TOOL}" creationtoolversion="1" segtype="paragraph" o-tmf="${TOOL}" adminlang="en" srclang="${memory.source ?? '*all*'}" datatype="plaintext">\n`;
  yield `    <prop type="x-memory-name">${escapeText(memory.name)}</prop>\n  </header>\n  <body>\n`;
  for await (const entries of pages) yield entries.map(translationUnit).join('');
  yield '  </body>\n</tmx>\n';
}

function translationUnit(entry: MemoryEntry): string {
  const used = entry.lastUsedAt ? ` lastusagedate="${tmxDate(entry.lastUsedAt)}"` : '';
  return (
    `    <tu srclang="${entry.sourceLang}" creationdate="${tmxDate(entry.createdAt)}" changedate="${tmxDate(entry.updatedAt)}" usagecount="${entry.usageCount}"${used}>\n` +
    `      <prop type="x-origin">${entry.origin}</prop>\n` +
    `      <prop type="x-provenance">${escapeText(JSON.stringify(entry.provenance))}</prop>\n` +
    `      <tuv xml:lang="${entry.sourceLang}"><seg>${segment(entry.sourceText, entry.sourceCodes)}</seg></tuv>\n` +
    `      <tuv xml:lang="${entry.targetLang}"><seg>${segment(entry.targetText, entry.targetCodes)}</seg></tuv>\n` +
    '    </tu>\n'
  );
}

function segment(masked: string, codes: InlineCodes): string {
  let result = '';
  const open: number[] = [];
  for (const part of maskedParts(masked)) {
    if (part.kind === 'text') {
      // The masked form is already escaped for XML.
      result += part.text;
    } else if (part.kind === 'x') {
      const code = codes[part.id];
      result += `<ph x="${part.id}">${escapeText(typeof code === 'string' ? code : '')}</ph>`;
    } else if (part.kind === 'open') {
      const code = codes[part.id];
      open.push(part.id);
      result += `<bpt i="${part.id}" x="${part.id}">${escapeText(Array.isArray(code) ? code[0] : '')}</bpt>`;
    } else {
      const id = open.pop()!;
      const code = codes[id];
      result += `<ept i="${id}">${escapeText(Array.isArray(code) ? code[1] : '')}</ept>`;
    }
  }
  return result;
}
