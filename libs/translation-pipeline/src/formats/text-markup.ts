import { findMarkupLookalikes } from '../segments/markup-lookalikes';
import { findTemplateSyntax } from '../segments/template-syntax';
import type { TextRange } from '../segments/variables';
import { isProtectedElement } from './html/html-flow';

/** A tag among the markup look-alikes: `/` before the name of an end tag, its attributes, `/` before `>` of an empty one. */
export const LOOKALIKE_TAG = /^<(\/?)([A-Za-z][^\s/>]*|\d{1,3})([^>]*?)(\/?)>$/;
const TRANSLATE_NO = /(?:^|[\s"'])translate\s*=\s*(["']?)\s*no\s*\1(?=[\s/>]|$)/i;

/**
 * What is not prose in a line of plain text (or a JSON string, or an HTML attribute value), in
 * order and without overlaps: template syntax, then what looks like markup outside it. A
 * look-alike element that HTML protects (`<code>`, `<kbd>`, `<script>`, `translate="no"`...)
 * is one range from its start tag to its end tag, kept verbatim like its HTML original.
 * `references`: `&name;` is a character reference of the notation (HTML), so plain text, not a
 * look-alike.
 */
export function findTextMarkup(line: string, references: boolean): TextRange[] {
  const templates = findTemplateSyntax(line);
  const lookalikes = findMarkupLookalikes(line).filter((range) => !references || line[range.start] !== '&');
  const merged: TextRange[] = [];
  let t = 0;
  let l = 0;
  while (t < templates.length || l < lookalikes.length) {
    const next = l >= lookalikes.length || (t < templates.length && templates[t].start <= lookalikes[l].start) ? templates[t++] : lookalikes[l++];
    if (merged.length === 0 || next.start >= merged[merged.length - 1].end) merged.push(next);
  }
  return withProtectedElements(line, merged);
}

/** `ranges` with each outermost protected element (start tag to its end tag, both among the ranges) as one range. */
function withProtectedElements(line: string, ranges: TextRange[]): TextRange[] {
  const open = new Map<string, { index: number; protects: boolean }[]>();
  const closeOf = new Map<number, number>();
  ranges.forEach(({ start, end }, index) => {
    const tag = LOOKALIKE_TAG.exec(line.slice(start, end));
    if (!tag || tag[4]) return;
    const name = tag[2].toLowerCase();
    const stack = open.get(name) ?? [];
    open.set(name, stack);
    if (!tag[1]) stack.push({ index, protects: isProtectedElement(name) || TRANSLATE_NO.test(tag[3]) });
    else {
      const element = stack.pop();
      if (element?.protects) closeOf.set(element.index, index);
    }
  });
  const result: TextRange[] = [];
  for (let index = 0; index < ranges.length; index++) {
    const close = closeOf.get(index);
    result.push(close === undefined ? ranges[index] : { start: ranges[index].start, end: ranges[close].end });
    if (close !== undefined) index = close;
  }
  return result;
}
