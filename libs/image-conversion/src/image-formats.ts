import sharp, { type AvailableFormatInfo } from 'sharp';

export const OUTPUT_FORMATS = ['webp', 'avif'] as const;
export type OutputFormat = (typeof OUTPUT_FORMATS)[number];

export const DEFAULT_FORMAT: OutputFormat = 'webp';
export const DEFAULT_QUALITY: Record<OutputFormat, number> = { webp: 85, avif: 80 };
export const MAX_FILES_PER_BATCH = 10;

/** Raster formats the service may accept, in the order they are listed to clients. */
const INPUT_CANDIDATES = ['jpeg', 'png', 'webp', 'avif', 'gif', 'tiff', 'heif'] as const;

/**
 * The candidates the installed libvips decodes from memory. AVIF and HEIF share one loader whose
 * file suffixes tell which codecs it was built with (the prebuilt sharp decodes AVIF, not HEVC),
 * so every format is judged by its suffix.
 */
export function decodableInputFormats(formats: Record<string, AvailableFormatInfo> = { ...sharp.format }): string[] {
  const decodable = new Set(
    Object.values(formats)
      .filter((format) => format.input.buffer)
      .flatMap((format) => format.input.fileSuffix ?? []),
  );
  return INPUT_CANDIDATES.filter((name) => decodable.has(`.${name}`));
}

export const CONTENT_TYPE: Record<OutputFormat, string> = { webp: 'image/webp', avif: 'image/avif' };

/** The format a stored image is also offered in. */
export function otherFormat(format: OutputFormat): OutputFormat {
  return format === 'webp' ? 'avif' : 'webp';
}

/**
 * The accepted raster format named by a header as sharp reads it, or undefined. AVIF is HEIF
 * with AV1 inside; SVG, PDF and the like decode too but are not raster uploads we accept.
 */
export function inputFormatOf(meta: { format?: string; compression?: string }): string | undefined {
  const name = meta.format === 'heif' && meta.compression === 'av1' ? 'avif' : meta.format;
  return (INPUT_CANDIDATES as readonly (string | undefined)[]).includes(name) ? name : undefined;
}
