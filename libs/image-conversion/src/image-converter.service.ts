import { Inject, Injectable } from '@nestjs/common';
import { combinations, MetricsRegistry } from '@platform/service-kit';
import type { Counter, Histogram } from 'prom-client';
import { stat } from 'node:fs/promises';
import sharp, { type Metadata } from 'sharp';
import { CONVERSION_SETTINGS, type ConversionSettings } from './conversion.config';
import { ConversionErrors } from './conversion-errors';
import type { EncodeTarget } from './conversion-params';
import { inputFormatOf, OUTPUT_FORMATS } from './image-formats';
import { NativeHeapTrimmer } from './native-heap-trimmer.service';

/** What the header of an accepted upload says, read without decoding the pixels. */
export interface ImageHeader {
  format: string;
  width: number;
  height: number;
  /** Frames of an animation; 1 for a still image. */
  frames: number;
}

export interface EncodedImage {
  data: Buffer;
  width: number;
  height: number;
}

/** Decodes, orients, bounds and encodes images with sharp, within the configured limits. */
@Injectable()
export class ImageConverter {
  private readonly encodeSeconds: Histogram<string>;
  private readonly encodedPixels: Counter<string>;

  constructor(
    @Inject(CONVERSION_SETTINGS) private readonly settings: ConversionSettings,
    private readonly heapTrimmer: NativeHeapTrimmer,
    metrics: MetricsRegistry,
  ) {
    const formats = combinations({ format: OUTPUT_FORMATS });
    this.encodeSeconds = metrics.histogram('image_encode_duration_seconds', 'Decoding, resizing and encoding one image, by output format', ['format'], [0.01, 0.025, 0.05, 0.1, 0.25, 0.5, 1, 2.5, 5, 10], formats);
    this.encodedPixels = metrics.counter('image_encoded_pixels_total', 'Pixels of the images encoded, every frame of an animation counted, by output format', ['format'], formats);
    // Every request brings a different image, so libvips' operation cache would only hold memory.
    sharp.cache(false);
    if (settings.SHARP_CONCURRENCY > 0) sharp.concurrency(settings.SHARP_CONCURRENCY);
  }

  /**
   * Accepts an upload by its header alone: a raster format we take (415 otherwise) within the
   * pixel cap (422), so a small file declaring a huge image is refused before any decoding.
   * `input` may be a file's path: only its header is read then, so a large file that is not an
   * image is refused without being loaded.
   */
  async inspect(input: Buffer | string): Promise<ImageHeader> {
    if ((typeof input === 'string' ? (await stat(input)).size : input.length) === 0) throw ConversionErrors.emptyFile();
    let meta: Metadata;
    try {
      meta = await sharp(input, { limitInputPixels: false }).metadata();
    } catch {
      throw ConversionErrors.notAnImage();
    }
    const format = inputFormatOf(meta);
    if (!format) throw ConversionErrors.notAnImage(meta.format);
    const { width, height } = meta;
    if (!width || !height) throw ConversionErrors.undecodable();
    // An animation is decoded whole, every frame counting against the cap.
    const frames = meta.pages ?? 1;
    if (width * height * frames > this.settings.MAX_PIXELS) throw ConversionErrors.tooManyPixels(width, height, frames, this.settings.MAX_PIXELS);
    return { format, width, height, frames };
  }

  /**
   * Turns the image upright by its EXIF orientation, fits it inside the bounds without enlarging,
   * and encodes it; all metadata but the colour profile is dropped. Animated input stays
   * animated in WebP; AVIF gets its first frame (libheif writes no AVIF sequences through sharp).
   */
  convert(input: Buffer, target: EncodeTarget): Promise<EncodedImage> {
    return this.heapTrimmer.around(() => this.encode(input, target));
  }

  private async encode(input: Buffer, target: EncodeTarget): Promise<EncodedImage> {
    const timer = this.encodeSeconds.startTimer({ format: target.format });
    try {
      const animated = target.format === 'webp' && mayHoldFrames(input);
      let pipeline = sharp(input, { animated, limitInputPixels: this.settings.MAX_PIXELS, failOn: 'truncated' }).autoOrient();
      if (target.maxWidth || target.maxHeight) {
        pipeline = pipeline.resize({ width: target.maxWidth, height: target.maxHeight, fit: 'inside', withoutEnlargement: true });
      }
      pipeline = pipeline.keepIccProfile();
      pipeline =
        target.format === 'avif'
          ? pipeline.avif({ quality: target.quality, effort: this.settings.AVIF_EFFORT })
          : pipeline.webp({ quality: target.quality, effort: this.settings.WEBP_EFFORT });
      const { data, info } = await pipeline.toBuffer({ resolveWithObject: true });
      timer();
      // An animation's frames are stacked: its height is all of theirs.
      this.encodedPixels.inc({ format: target.format }, info.width * info.height);
      return { data, width: info.width, height: info.height };
    } catch {
      // The header was readable (inspect passed), so a failure here is damaged pixel data.
      throw ConversionErrors.undecodable();
    }
  }
}

const JPEG = Buffer.from([0xff, 0xd8, 0xff]);
const PNG = Buffer.from([0x89, 0x50, 0x4e, 0x47]);

/**
 * Whether the input may hold several frames (GIF, WebP, TIFF, HEIF). JPEG and PNG never do for
 * libvips, and loading them as animations costs a still image 6–16 % more time to encode.
 */
function mayHoldFrames(input: Buffer): boolean {
  return !input.subarray(0, JPEG.length).equals(JPEG) && !input.subarray(0, PNG.length).equals(PNG);
}
