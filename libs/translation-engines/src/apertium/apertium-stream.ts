/**
 * Conversion between segments and Apertium's stream format, doing what `apertium-deshtml -n` and
 * `apertium-rehtml` do for the markup segments carry. Those two programs cannot serve warm
 * pipelines: the deformatter drops the NUL that ends each request instead of passing it on, and
 * buffers its output until end of input.
 *
 * Tags and character references become superblanks (`[<g id="1">]`), which every stage passes
 * through untouched, so they come back byte for byte. Characters that the stream format reserves
 * are escaped with a backslash.
 */
const MARKUP = /<\/?[A-Za-z][^<>]*>|<!--[\s\S]*?-->|&(?:#\d+|#x[0-9A-Fa-f]+|[A-Za-z][A-Za-z0-9]*);/g;
const RESERVED = /[\\[\]^$/@<>{}]/g;
const escape = (text: string) => text.replace(RESERVED, '\\$&');

export function toStream(segment: string): string {
  // A NUL would end the request early inside the pipeline.
  const clean = segment.replaceAll('\0', '');
  let stream = '';
  let last = 0;
  for (const match of clean.matchAll(MARKUP)) {
    stream += `${escape(clean.slice(last, match.index))}[${escape(match[0])}]`;
    last = match.index + match[0].length;
  }
  return stream + escape(clean.slice(last));
}

/** Unescapes the output and opens the superblanks again. */
export function fromStream(stream: string): string {
  let text = '';
  for (let i = 0; i < stream.length; i++) {
    const char = stream[i];
    if (char === '\\') text += stream[++i] ?? '';
    else if (char !== '[' && char !== ']') text += char;
  }
  return text;
}
