import { DEFAULT_QUALITY, type OutputFormat } from './image-formats';

/** What a client asks for; the format aside, these also define the stored image's identity. */
export interface ConversionParams {
  format: OutputFormat;
  /** Quality the client chose; absent means each format's own default. */
  quality?: number;
  maxWidth?: number;
  maxHeight?: number;
}

/** Everything the encoder needs for one output. */
export interface EncodeTarget {
  format: OutputFormat;
  quality: number;
  maxWidth?: number;
  maxHeight?: number;
}

/** The same request in another format: a chosen quality carries over, a default one follows the format. */
export function encodeTarget(params: ConversionParams, format: OutputFormat = params.format): EncodeTarget {
  return { format, quality: params.quality ?? DEFAULT_QUALITY[format], maxWidth: params.maxWidth, maxHeight: params.maxHeight };
}
