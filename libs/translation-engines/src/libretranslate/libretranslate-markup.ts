import { PLACEHOLDER } from '../translation-engine';

/**
 * LibreTranslate parses `format: html` input as HTML and serialises its answer with an end tag
 * for every unknown element (`<x id="1"></x>`) and with all entities decoded. Segments are markup
 * whose only tags are the placeholders, so the placeholders are put back in their canonical form
 * and everything between them is escaped again.
 */
const PLACEHOLDER_TAG = /(<x id="\d+"\s*\/?>(?:<\/x>)?|<g id="\d+"\s*>|<\/g\s*>)/;
const ESCAPES: Record<string, string> = { '&': '&amp;', '<': '&lt;', '>': '&gt;' };

export function fromLibreTranslateHtml(html: string): string {
  return html
    .split(PLACEHOLDER_TAG)
    .map((part, index) => (index % 2 === 1 ? canonicalTag(part) : part.replace(/[&<>]/g, (char) => ESCAPES[char])))
    .join('');
}

function canonicalTag(tag: string): string {
  const id = Number(/id="(\d+)"/.exec(tag)?.[1]);
  if (tag.startsWith('<x')) return PLACEHOLDER.empty(id);
  return tag.startsWith('<g') ? PLACEHOLDER.open(id) : PLACEHOLDER.close;
}
