import { InjectQueue } from '@nestjs/bull';
import { Injectable, Logger } from '@nestjs/common';
import { QueueName } from '@platform/contracts';
import { ApiError } from '@platform/errors';
import {
  type ConversionParams,
  encodeTarget,
  enqueueVariant,
  ImageConverter,
  imageId,
  ImageObjectStore,
  OUTPUT_FORMATS,
  type OutputFormat,
  otherFormat,
  type PendingVariant,
} from '@platform/image-conversion';
import { type TokenPrincipal, TokenErrors, TokenService } from '@platform/image-tokens';
import { combinations, MetricsRegistry } from '@platform/service-kit';
import type { Queue } from 'bull';
import { readFile } from 'node:fs/promises';
import type { Counter } from 'prom-client';
import { ImageApiConfig } from '../config/image-api.config';
import { ConversionTurns } from './conversion-turns';
import type { BatchItemDto, BatchResultDto } from './dtos/batch-result.dto';
import type { UploadedFile } from './upload.reader';

export interface ConvertedImage {
  imageId: string;
  format: OutputFormat;
  data: Buffer;
  originalSize: number;
  convertedSize: number;
  /** Percent of the original size saved, rounded; negative when the output is larger. */
  savings: number;
  processingMs: number;
  cdnUrls: Record<OutputFormat, string>;
}

/** Converts uploads for a token: checks, counts, converts or reuses, stores, and schedules the other format. */
@Injectable()
export class ConvertService {
  private readonly logger = new Logger(ConvertService.name);
  private readonly conversions: Counter<string>;
  /**
   * Decoding holds a whole bitmap (a 50-megapixel image is 200 MB), so only a few run at once,
   * and only as many pixels together as the budget allows.
   */
  private readonly turns: ConversionTurns;

  constructor(
    private readonly converter: ImageConverter,
    private readonly store: ImageObjectStore,
    private readonly tokens: TokenService,
    private readonly config: ImageApiConfig,
    @InjectQueue(QueueName.ImageVariants) private readonly variants: Queue,
    metrics: MetricsRegistry,
  ) {
    this.turns = new ConversionTurns(config.CONCURRENT_CONVERSIONS_PER_PROCESS, config.CONVERSION_PIXELS_PER_PROCESS);
    this.conversions = metrics.counter(
      'image_conversions_total',
      'Conversions counted against a token, by format and whether they were encoded or served from storage',
      ['format', 'source'],
      combinations({ format: OUTPUT_FORMATS, source: ['encoded', 'stored'] }),
    );
  }

  /**
   * One conversion of the uploaded file at `file`, counted once against the token's monthly limit: refused input (415/422) is
   * not counted, and a conversion that fails after counting is given back. Storage round trips
   * that do not depend on each other overlap: the stored copy is looked up while the conversion
   * is counted, and the source is kept for the other format while this one is encoded, so a
   * request waits for storage about once instead of three times. A stored copy is answered as
   * it is: its other format was made or queued when it was first converted.
   */
  async convert(principal: TokenPrincipal, file: string, params: ConversionParams): Promise<ConvertedImage> {
    const started = performance.now();
    // The header alone settles whether the file is taken, so a refused one is never loaded.
    const { width, height, frames } = await this.converter.inspect(file);
    const upload = await readFile(file);
    const pixels = width * height * frames;
    const id = imageId(upload, params);
    const [counting, lookup] = await Promise.allSettled([this.tokens.consume(principal.subscriptionId, principal.limit), this.store.get(id, params.format)]);
    if (counting.status === 'rejected') throw counting.reason;
    const counted = counting.value;
    if (!counted) throw TokenErrors.limitReached(principal.limit, principal.limit);
    try {
      if (lookup.status === 'rejected') throw lookup.reason;
      const stored = lookup.value;
      const pending = stored ? null : this.keepSourceForOtherFormat(id, upload, params);
      let data: Buffer;
      try {
        data = stored ?? (await this.encodeAndStore(id, upload, pixels, params));
      } catch (error) {
        if (pending) await this.dropPending(pending);
        throw error;
      }
      const variant = await pending;
      // Not awaited: while Redis is down Bull would hold the request until it is back.
      if (variant) {
        enqueueVariant(this.variants, variant).catch((error: unknown) =>
          this.logger.warn({ msg: 'variant not queued; the sweep will pick it up', imageId: id, format: variant.format, err: String(error) }),
        );
      }
      this.conversions.inc({ format: params.format, source: stored ? 'stored' : 'encoded' });
      return {
        imageId: id,
        format: params.format,
        data,
        originalSize: upload.length,
        convertedSize: data.length,
        savings: Math.round((1 - data.length / upload.length) * 100),
        processingMs: Math.round(performance.now() - started),
        cdnUrls: Object.fromEntries(OUTPUT_FORMATS.map((format) => [format, this.cdnUrl(id, format)])) as Record<OutputFormat, string>,
      };
    } catch (error) {
      await this.tokens.release(principal.subscriptionId, counted.month, 1);
      if (error instanceof ApiError) throw error;
      this.logger.error({ msg: 'image storage failed', err: error instanceof Error ? error.message : String(error) });
      throw ApiError.unavailable('Image storage is unavailable; the conversion was not counted, try again');
    }
  }

  /**
   * Converts the files in order, each counted as in `convert` and read from its temp file only
   * when its turn comes, so a batch holds one file in memory at a time. A file that fails is reported
   * in its place; once the limit is reached the remaining files fail with the limit message.
   * When no file could be converted because of the limit or an outage, the request itself
   * fails with that error, as a single conversion would.
   */
  async convertBatch(principal: TokenPrincipal, files: UploadedFile[], params: ConversionParams): Promise<BatchResultDto> {
    const results: BatchItemDto[] = [];
    const failures: ApiError[] = [];
    let limitReached: ApiError | undefined;
    for (const { filename, path } of files) {
      try {
        if (limitReached) throw limitReached;
        const { format, originalSize, convertedSize, savings, imageId: id, cdnUrls } = await this.convert(principal, path, params);
        results.push({ filename, success: true, format, originalSize, convertedSize, savings, imageId: id, cdnUrls });
      } catch (error) {
        if (!(error instanceof ApiError)) throw error;
        if (error.getStatus() === 402) limitReached = error;
        failures.push(error);
        results.push({ filename, success: false, error_message: error.message });
      }
    }
    const successCount = results.length - failures.length;
    const requestWide = failures.find((error) => error.getStatus() === 402 || error.getStatus() >= 500);
    if (successCount === 0 && requestWide && failures.every((error) => error.getStatus() === requestWide.getStatus())) throw requestWide;
    return { success: successCount === files.length, results, totalProcessed: files.length, successCount };
  }

  cdnUrl(id: string, format: OutputFormat): string {
    return `${this.config.cdnBaseUrl}/${ImageObjectStore.key(id, format)}`;
  }

  private async encodeAndStore(id: string, upload: Buffer, pixels: number, params: ConversionParams): Promise<Buffer> {
    const { data } = await this.turns.run(pixels, () => this.converter.convert(upload, encodeTarget(params)));
    await this.store.put(id, params.format, data);
    return data;
  }

  /**
   * The source goes to storage first, so the variant is made even when Redis is away: the
   * worker's sweep finds sources the queue never heard of. Whether the other format is stored
   * already is left to the worker, which asks before it encodes: for an image that was not
   * stored in this format it hardly ever is (the other format is made after the first
   * conversion, and asked for later it is answered from storage), so asking here would cost
   * every new conversion a storage round trip to spare an upload in a rare race.
   * The promise is settled by the caller: awaited, or given to `dropPending`.
   */
  private keepSourceForOtherFormat(id: string, upload: Buffer, params: ConversionParams): Promise<PendingVariant> {
    const pending = this.store.putPending(id, otherFormat(params.format), upload, params);
    // Settled later; until then a rejection must not count as unhandled.
    pending.catch(() => {});
    return pending;
  }

  /** This format failed, so no variant is made from the source kept meanwhile. */
  private async dropPending(pending: Promise<PendingVariant>): Promise<void> {
    const variant = await pending.catch(() => null);
    if (!variant) return;
    await this.store.deletePending(variant.key).catch((error: unknown) =>
      this.logger.warn({ msg: 'source of a failed conversion not removed; the worker drops it', key: variant.key, err: String(error) }),
    );
  }
}
