import { ApiError } from '@platform/errors';
import type { InlineToken } from '../inline-text';
import { breathe, isBlank, languageOf, skip, UNITS_PER_SLICE, type MemoryFile, type ReadOptions } from './memory-file';
import { childElements, lineOf, MAX_INLINE_DEPTH, textOf, type XmlElement } from './xml';

const invalid = (message: string) => ApiError.invalidParameter(`The XLIFF file is invalid: ${message}`);

/** Target states that say the target is not a translation yet (often a copy of the source). */
const NOT_TRANSLATED = new Set(['new', 'needs-translation']);

/**
 * XLIFF 1.2 (and 1.1), as Xcode, Angular, Okapi and most CAT tools still write it: every
 * `<trans-unit>` (in `<file>`s, `<body>`s and `<group>`s) with a non-empty `<target>` gives one
 * entry from the file's `source-language` to its `target-language`, or one per segment when the
 * unit is segmented (`<seg-source>` and `<target>` with `<mrk mtype="seg" mid>`, paired by `mid`).
 * Units marked `translate="no"` and targets in state `new` or `needs-translation` are skipped.
 * Inline codes (`<g>`, `<x/>`, `<bx/>`/`<ex/>`, `<ph>`, `<bpt>`/`<ept>`, `<it>`) become
 * placeholders tied between source and target by their `id`, with the native code of
 * `<ph>`/`<bpt>`/`<ept>`/`<it>` as their original; other `<mrk>`s are transparent.
 */
export async function readXliff1(root: XmlElement, options: ReadOptions): Promise<MemoryFile> {
  const file: MemoryFile = { format: 'xliff', units: [], skipped: {} };
  const files = childElements(root, 'file');
  const units: Array<{ unit: XmlElement; sourceLang: string; targetLang: string | undefined }> = [];
  for (const element of files) {
    const sourceLang = fileLanguage(element, 'source-language');
    if (options.source && options.source !== sourceLang) {
      throw invalid(`${lineOf(element)}: source-language is "${element.attributes['source-language']}", and this memory holds sources in "${options.source}"`);
    }
    const tag = element.attributes['target-language'];
    const targetLang = tag ? languageOf(tag) : undefined;
    if (tag && !targetLang) throw invalid(`${lineOf(element)}: target-language "${tag}" is not one of the 24 official EU languages`);
    const collect = (container: XmlElement, depth: number) => {
      if (depth > MAX_INLINE_DEPTH) throw invalid(`${lineOf(container)}: groups nest more than ${MAX_INLINE_DEPTH} deep`);
      for (const child of childElements(container)) {
        if (child.name === 'trans-unit') units.push({ unit: child, sourceLang, targetLang });
        else if (child.name === 'body' || child.name === 'group') collect(child, depth + 1);
      }
    };
    collect(element, 0);
  }
  for (const [index, { unit, sourceLang, targetLang }] of units.entries()) {
    if (index % UNITS_PER_SLICE === 0) await breathe();
    readUnit(unit, file, sourceLang, targetLang);
  }
  return file;
}

function fileLanguage(file: XmlElement, attribute: 'source-language'): string {
  const tag = file.attributes[attribute];
  if (!tag) throw invalid(`${lineOf(file)}: <file> has no ${attribute}`);
  const language = languageOf(tag);
  if (!language) throw invalid(`${lineOf(file)}: ${attribute} "${tag}" is not one of the 24 official EU languages`);
  return language;
}

function readUnit(unit: XmlElement, file: MemoryFile, sourceLang: string, targetLang: string | undefined): void {
  if (unit.attributes.translate === 'no') return;
  const [source] = childElements(unit, 'source');
  const [target] = childElements(unit, 'target');
  if (!source) throw invalid(`${lineOf(unit)}: <trans-unit> has no <source>`);
  if (!target || NOT_TRANSLATED.has(target.attributes.state ?? '')) return skip(file, 'untranslated');
  const language = languageOf(target.attributes['xml:lang']) ?? targetLang;
  if (!language) return skip(file, 'language');
  const [segmented] = childElements(unit, 'seg-source');
  const pairs = segmented ? segmentPairs(segmented, target) : [{ source: contentTokens(source), target: contentTokens(target) }];
  for (const pair of pairs) {
    if (isBlank(pair.target)) skip(file, 'untranslated');
    else file.units.push({ at: lineOf(unit), sourceLang, targetLang: language, ...pair });
  }
}

/** The `<mrk mtype="seg">` segments of a segmented unit, source and target paired by `mid`. */
function segmentPairs(segSource: XmlElement, target: XmlElement): Array<{ source: InlineToken[]; target: InlineToken[] }> {
  const segments = (content: XmlElement) => {
    const found = new Map<string, XmlElement>();
    const walk = (element: XmlElement, depth: number) => {
      if (depth > MAX_INLINE_DEPTH) throw invalid(`${lineOf(element)}: inline elements nest more than ${MAX_INLINE_DEPTH} deep`);
      for (const child of childElements(element)) {
        if (child.name === 'mrk' && child.attributes.mtype === 'seg') found.set(child.attributes.mid ?? '', child);
        else walk(child, depth + 1);
      }
    };
    walk(content, 0);
    return found;
  };
  const translated = segments(target);
  return [...segments(segSource)].map(([mid, source]) => {
    const match = translated.get(mid);
    return { source: contentTokens(source), target: match ? contentTokens(match) : [] };
  });
}

function contentTokens(content: XmlElement): InlineToken[] {
  const tokens: InlineToken[] = [];
  const walk = (element: XmlElement, depth: number) => {
    if (depth > MAX_INLINE_DEPTH) throw invalid(`${lineOf(element)}: inline elements nest more than ${MAX_INLINE_DEPTH} deep`);
    for (const code of element.children) {
      if (typeof code === 'string') {
        tokens.push({ kind: 'text', text: code });
        continue;
      }
      const id = code.attributes.id;
      const pair = code.attributes.rid || id;
      switch (code.name) {
        case 'g':
          tokens.push({ kind: 'open', raw: '', pair: `g${id}`, ref: id });
          walk(code, depth + 1);
          tokens.push({ kind: 'close', raw: '', pair: `g${id}` });
          break;
        case 'x':
          tokens.push({ kind: 'code', raw: '', ref: id });
          break;
        case 'ph':
        case 'it':
          tokens.push({ kind: 'code', raw: textOf(code), ref: id });
          break;
        case 'bx':
        case 'bpt':
          tokens.push({ kind: 'open', raw: code.name === 'bpt' ? textOf(code) : '', pair: `p${pair}`, ref: id });
          break;
        case 'ex':
        case 'ept':
          tokens.push({ kind: 'close', raw: code.name === 'ept' ? textOf(code) : '', pair: `p${pair}` });
          break;
        case 'mrk':
          walk(code, depth + 1);
          break;
        default:
          throw invalid(`${lineOf(code)}: <${code.tagName}> is not allowed in <${content.name}> (XLIFF 1.2 allows <g>, <x>, <bx>, <ex>, <ph>, <bpt>, <ept>, <it> and <mrk>)`);
      }
    }
  };
  walk(content, 0);
  return tokens;
}
