import { ApiError } from '@platform/errors';
import type { InlineToken } from '../inline-text';
import { breathe, isBlank, languageOf, skip, UNITS_PER_SLICE, type MemoryFile, type ReadOptions } from './memory-file';
import { childElements, decodeXml, lineOf, MAX_INLINE_DEPTH, parseXml, textOf, type XmlElement } from './xml';
import { readXliff1 } from './xliff1-reader';

const invalid = (message: string) => ApiError.invalidParameter(`The XLIFF file is invalid: ${message}`);

/**
 * XLIFF 2.x: every `<segment>` of every `<unit>` (in `<file>`s and `<group>`s) with a non-empty
 * `<target>` gives one entry from `srcLang` to `trgLang`. Inline codes (`<ph>`, `<pc>`,
 * `<sc>`/`<ec>`) become placeholders, tied between source and target by their `id`; their
 * originals come from the unit's `<originalData>` where it has them. Annotations (`<mrk>`) are
 * transparent. XLIFF 1.x is read by `readXliff1`.
 */
export async function readXliff(bytes: Uint8Array, options: ReadOptions): Promise<MemoryFile> {
  const root = await parseXml(decodeXml(bytes, 'XLIFF'), 'XLIFF');
  if (root.name !== 'xliff') throw invalid(`${lineOf(root)}: the root element is <${root.tagName}>, not <xliff>`);
  const version = root.attributes.version ?? '';
  if (version === '1.1' || version === '1.2') return readXliff1(root, options);
  if (!version.startsWith('2.')) throw invalid(`${lineOf(root)}: XLIFF ${version || 'without a version'} is not supported; export XLIFF 1.2, 2.0, 2.1 or 2.2`);
  const sourceLang = pairLanguage(root, 'srcLang');
  const targetLang = pairLanguage(root, 'trgLang');
  if (options.source && options.source !== sourceLang) throw invalid(`${lineOf(root)}: srcLang is "${sourceLang}", and this memory holds sources in "${options.source}"`);

  const file: MemoryFile = { format: 'xliff', units: [], skipped: {} };
  const units: XmlElement[] = [];
  const collect = (element: XmlElement, depth = 0) => {
    if (depth > MAX_INLINE_DEPTH) throw invalid(`${lineOf(element)}: groups nest more than ${MAX_INLINE_DEPTH} deep`);
    for (const child of childElements(element)) {
      if (child.name === 'unit') units.push(child);
      else if (child.name === 'file' || child.name === 'group') collect(child, depth + 1);
    }
  };
  collect(root);
  for (const [index, unit] of units.entries()) {
    if (index % UNITS_PER_SLICE === 0) await breathe();
    readUnit(unit, file, sourceLang, targetLang);
  }
  return file;
}

function pairLanguage(root: XmlElement, attribute: 'srcLang' | 'trgLang'): string {
  const tag = root.attributes[attribute];
  if (!tag) throw invalid(`${lineOf(root)}: <xliff> has no ${attribute}${attribute === 'trgLang' ? ', so it holds no translations' : ''}`);
  const language = languageOf(tag);
  if (!language) throw invalid(`${lineOf(root)}: ${attribute} "${tag}" is not one of the 24 official EU languages`);
  return language;
}

function readUnit(unit: XmlElement, file: MemoryFile, sourceLang: string, targetLang: string): void {
  const data = new Map<string, string>();
  for (const original of childElements(unit, 'originalData')) {
    for (const item of childElements(original, 'data')) data.set(item.attributes.id ?? '', textOf(item));
  }
  for (const segment of childElements(unit, 'segment')) {
    const [source] = childElements(segment, 'source');
    const [target] = childElements(segment, 'target');
    if (!source) throw invalid(`${lineOf(segment)}: <segment> has no <source>`);
    const targetTokens = target ? contentTokens(target, data) : [];
    if (isBlank(targetTokens)) skip(file, 'untranslated');
    else file.units.push({ at: lineOf(segment), sourceLang, targetLang, source: contentTokens(source, data), target: targetTokens });
  }
}

function contentTokens(content: XmlElement, data: Map<string, string>): InlineToken[] {
  const tokens: InlineToken[] = [];
  let pairs = 0;
  const original = (code: XmlElement, attribute: string) => data.get(code.attributes[attribute] ?? '') ?? '';
  const walk = (element: XmlElement, depth = 0) => {
    if (depth > MAX_INLINE_DEPTH) throw invalid(`${lineOf(element)}: inline elements nest more than ${MAX_INLINE_DEPTH} deep`);
    for (const code of element.children) {
      if (typeof code === 'string') {
        tokens.push({ kind: 'text', text: code });
        continue;
      }
      const id = code.attributes.id;
      const isolated = code.attributes.isolated === 'yes';
      switch (code.name) {
        case 'ph':
          tokens.push({ kind: 'code', raw: original(code, 'dataRef'), ref: id });
          break;
        case 'pc': {
          const pair = `pc${pairs++}`;
          tokens.push({ kind: 'open', raw: original(code, 'dataRefStart'), pair, ref: id });
          walk(code, depth + 1);
          tokens.push({ kind: 'close', raw: original(code, 'dataRefEnd'), pair });
          break;
        }
        case 'sc':
          tokens.push(isolated ? { kind: 'code', raw: original(code, 'dataRef'), ref: id } : { kind: 'open', raw: original(code, 'dataRef'), pair: `sc${id}`, ref: id });
          break;
        case 'ec':
          tokens.push(isolated ? { kind: 'code', raw: original(code, 'dataRef'), ref: id } : { kind: 'close', raw: original(code, 'dataRef'), pair: `sc${code.attributes.startRef}` });
          break;
        case 'mrk':
          walk(code, depth + 1);
          break;
        case 'sm':
        case 'em':
          break;
        case 'cp':
          tokens.push({ kind: 'text', text: codePoint(code) });
          break;
        default:
          throw invalid(`${lineOf(code)}: <${code.tagName}> is not allowed in <${content.name}> (XLIFF 2 allows <ph>, <pc>, <sc>, <ec>, <mrk>, <sm>, <em> and <cp>)`);
      }
    }
  };
  walk(content);
  return tokens;
}

function codePoint(cp: XmlElement): string {
  const hex = cp.attributes.hex ?? '';
  const value = /^[0-9A-Fa-f]{1,6}$/.test(hex) ? parseInt(hex, 16) : NaN;
  if (!(value <= 0x10ffff)) throw invalid(`${lineOf(cp)}: <cp hex="${hex}"> is not a Unicode code point`);
  return String.fromCodePoint(value);
}
