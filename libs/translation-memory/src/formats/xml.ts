import { ApiError } from '@platform/errors';
import { SaxesParser } from 'saxes';
import { breathe, BYTES_PER_SLICE } from './memory-file';

/** An element of a parsed file: what the readers need of it, and its line for messages. */
export interface XmlElement {
  /** The name without its namespace prefix (`unit` for `<xlf:unit>`). */
  name: string;
  /** As written (`<xlf:unit>`), for messages. */
  tagName: string;
  /** By qualified name: `xml:lang`, `srcLang`. */
  attributes: Record<string, string>;
  /** Text (entities and CDATA resolved) and elements, in order; comments and processing instructions are left out. */
  children: (XmlElement | string)[];
  line: number;
}

/** How deep inline elements may nest in a segment: real files nest a few levels, and the readers walk them recursively. */
export const MAX_INLINE_DEPTH = 50;

/**
 * The text of an XML file's bytes: UTF-8 (with or without BOM) or UTF-16 with its BOM, as CAT
 * tools write TMX and XLIFF. Bytes that are not what they claim are refused rather than replaced.
 */
export function decodeXml(bytes: Uint8Array, what: string): string {
  const encoding = bytes[0] === 0xff && bytes[1] === 0xfe ? 'utf-16le' : bytes[0] === 0xfe && bytes[1] === 0xff ? 'utf-16be' : 'utf-8';
  try {
    return new TextDecoder(encoding, { fatal: true }).decode(bytes);
  } catch {
    throw ApiError.invalidParameter(`The ${what} file is not valid ${encoding.toUpperCase()} text; save it as UTF-8`);
  }
}

/**
 * The root element of a well-formed XML document, or 422 naming the line of the first problem.
 * The parser (saxes) is strict, as XML asks: an unquoted attribute or a stray `&` is an error,
 * not a guess. It neither fetches nor expands DTD entities.
 */
export async function parseXml(text: string, what: string): Promise<XmlElement> {
  const parser = new SaxesParser({ xmlns: false, position: true });
  const document: XmlElement = { name: '', tagName: '', attributes: {}, children: [], line: 0 };
  const open: XmlElement[] = [document];
  const addText = (value: string) => {
    const { children } = open.at(-1)!;
    // Outside the root there is nothing but whitespace, which a document may have.
    if (open.length > 1) children.push(value);
  };
  parser.on('opentag', (tag) => {
    // Namespaces are not resolved (faster by half): a prefix is dropped from the name.
    const element: XmlElement = { name: tag.name.slice(tag.name.indexOf(':') + 1), tagName: tag.name, attributes: tag.attributes, children: [], line: parser.line };
    open.at(-1)!.children.push(element);
    if (!tag.isSelfClosing) open.push(element);
  });
  parser.on('closetag', (tag) => {
    if (!tag.isSelfClosing) open.pop();
  });
  parser.on('text', addText);
  parser.on('cdata', addText);
  try {
    for (let start = 0; start < text.length; start += BYTES_PER_SLICE) {
      // saxes joins a surrogate pair cut by a slice boundary.
      parser.write(text.slice(start, start + BYTES_PER_SLICE));
      await breathe();
    }
    parser.close();
  } catch (error) {
    // saxes says "line:column: message".
    const [, line, message] = /^(\d+):\d+: ([\s\S]*)$/.exec((error as Error).message) ?? [];
    throw ApiError.invalidParameter(`The ${what} file is not well-formed XML: ${line ? `line ${line}: ${message}` : (error as Error).message}`);
  }
  const root = document.children.find((child): child is XmlElement => typeof child !== 'string');
  if (!root) throw ApiError.invalidParameter(`The ${what} file is not well-formed XML: there is no root element`);
  return root;
}

/** The element's child elements, those named `name` only when it is given. */
export function childElements(element: XmlElement, name?: string): XmlElement[] {
  return element.children.filter((child): child is XmlElement => typeof child !== 'string' && (name === undefined || child.name === name));
}

/** All the text inside the element, nested elements included. */
export function textOf(element: XmlElement): string {
  let text = '';
  const pending: (XmlElement | string)[] = [element];
  while (pending.length > 0) {
    const node = pending.pop()!;
    if (typeof node === 'string') text += node;
    else for (let i = node.children.length - 1; i >= 0; i--) pending.push(node.children[i]);
  }
  return text;
}

/** "line N" of an element, for messages. */
export function lineOf(element: XmlElement): string {
  return `line ${element.line}`;
}
