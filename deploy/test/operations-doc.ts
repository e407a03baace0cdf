import { readFileSync } from 'node:fs';

/** The anchor GitHub gives a Markdown heading: lower case, punctuation dropped, spaces as hyphens. */
const anchorOf = (heading: string) =>
  heading
    .trim()
    .toLowerCase()
    .replace(/[^\p{L}\p{N} _-]/gu, '')
    .replace(/ /g, '-');

/** The anchors of docs/operations.md's headings. */
export function operationsAnchors(): Set<string> {
  const text = readFileSync(new URL('../../docs/operations.md', import.meta.url), 'utf8');
  return new Set([...text.matchAll(/^#{1,6} (.+)$/gm)].map(([, heading]) => anchorOf(heading)));
}
