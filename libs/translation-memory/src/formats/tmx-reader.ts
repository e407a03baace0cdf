import { ApiError } from '@platform/errors';
import type { InlineToken } from '../inline-text';
import { breathe, isBlank, languageOf, skip, UNITS_PER_SLICE, type MemoryFile, type ReadOptions } from './memory-file';
import { childElements, decodeXml, lineOf, MAX_INLINE_DEPTH, parseXml, textOf, type XmlElement } from './xml';

const invalid = (message: string) => ApiError.invalidParameter(`The TMX file is invalid: ${message}`);

/**
 * TMX 1.4b (and 1.4, 1.3): every `<tu>` gives one entry per `<tuv>` in another language than
 * its source. The source language is the memory's when it has one, else the `<tu>`'s `srclang`,
 * else the header's. Inline codes (`<bpt>`/`<ept>` paired by `i`, `<ph>`, `<it>`, `<ut>`)
 * become placeholders; their content is kept as the original; `<hi>` is transparent.
 */
export async function readTmx(bytes: Uint8Array, options: ReadOptions): Promise<MemoryFile> {
  const root = await parseXml(decodeXml(bytes, 'TMX'), 'TMX');
  if (root.name !== 'tmx') throw invalid(`${lineOf(root)}: the root element is <${root.tagName}>, not <tmx>`);
  const [header] = childElements(root, 'header');
  const [body] = childElements(root, 'body');
  if (!header) throw invalid(`${lineOf(root)}: <tmx> has no <header>`);
  if (!body) throw invalid(`${lineOf(root)}: <tmx> has no <body>`);
  const file: MemoryFile = { format: 'tmx', units: [], skipped: {}, tool: header.attributes.creationtool || undefined };
  const headerSource = header.attributes.srclang;

  for (const [index, tu] of childElements(body, 'tu').entries()) {
    if (index % UNITS_PER_SLICE === 0) await breathe();
    const tuvs = childElements(tu, 'tuv').map((tuv) => {
      const tag = tuv.attributes['xml:lang'] || tuv.attributes.lang;
      if (!tag) throw invalid(`${lineOf(tuv)}: <tuv> has no xml:lang`);
      const segs = childElements(tuv, 'seg');
      if (segs.length !== 1) throw invalid(`${lineOf(tuv)}: <tuv> has ${segs.length} <seg> elements instead of one`);
      return { language: languageOf(tag), tokens: segTokens(segs[0]) };
    });
    const sourceTag = tu.attributes.srclang || headerSource;
    if (!options.source && (!sourceTag || sourceTag === '*all*')) {
      throw invalid(`${lineOf(tu)}: the file does not say which language is the source (srclang="${sourceTag ?? ''}"); give the memory a source language or pass ?source=`);
    }
    const sourceLang = options.source ?? languageOf(sourceTag);
    const source = sourceLang === undefined ? undefined : tuvs.find((tuv) => tuv.language === sourceLang);
    if (!sourceLang || !source) {
      skip(file, sourceLang ? 'no_source' : 'language');
      continue;
    }
    for (const tuv of tuvs) {
      if (tuv.language === sourceLang) continue;
      if (!tuv.language) skip(file, 'language');
      else if (isBlank(tuv.tokens)) skip(file, 'untranslated');
      else file.units.push({ at: lineOf(tu), sourceLang, targetLang: tuv.language, source: source.tokens, target: tuv.tokens });
    }
  }
  return file;
}

function segTokens(seg: XmlElement): InlineToken[] {
  const tokens: InlineToken[] = [];
  const walk = (element: XmlElement, depth = 0) => {
    if (depth > MAX_INLINE_DEPTH) throw invalid(`${lineOf(element)}: inline elements nest more than ${MAX_INLINE_DEPTH} deep`);
    for (const code of element.children) {
      if (typeof code === 'string') {
        tokens.push({ kind: 'text', text: code });
        continue;
      }
      const raw = textOf(code);
      const x = code.attributes.x || undefined;
      const i = code.attributes.i || undefined;
      switch (code.name) {
        case 'bpt':
        case 'ept':
          if (!i) throw invalid(`${lineOf(code)}: <${code.name}> has no i attribute, which pairs <bpt> with <ept>`);
          tokens.push(code.name === 'bpt' ? { kind: 'open', raw, pair: i, ref: x ? `x${x}` : `i${i}` } : { kind: 'close', raw, pair: i });
          break;
        case 'ph':
        case 'it':
        case 'ut':
          tokens.push({ kind: 'code', raw, ref: x ? `x${x}` : undefined });
          break;
        case 'hi':
          walk(code, depth + 1);
          break;
        default:
          throw invalid(`${lineOf(code)}: <${code.tagName}> is not allowed in <seg> (TMX allows <bpt>, <ept>, <it>, <ph>, <hi> and <ut>)`);
      }
    }
  };
  walk(seg);
  return tokens;
}
