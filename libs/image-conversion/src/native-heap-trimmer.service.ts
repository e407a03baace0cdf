import { Inject, Injectable, Logger, type OnApplicationShutdown } from '@nestjs/common';
import { combinations, MetricsRegistry } from '@platform/service-kit';
import type { Counter } from 'prom-client';
import { CONVERSION_SETTINGS, type ConversionSettings } from './conversion.config';
import type { MallocTrim } from './malloc-trim';

export const MALLOC_TRIM = Symbol('MALLOC_TRIM');

/**
 * Trims keep going for this many intervals after the last conversion ended: buffers of a
 * finished request are freed when V8 collects them, which can be after the first trim.
 */
const TRIMS_AFTER_WORK = 2;

/**
 * Gives the memory libvips and the codecs freed back to the system while and after images are
 * converted. glibc keeps freed chunks below the mmap threshold in its arenas, and pages of them
 * stay resident until something asks for them back: after ten minutes of conversions image-api
 * and image-worker held about 30 MiB more than at rest, most of it free to glibc, which
 * `malloc_trim` returns (docs/performance.md). imgproxy frees memory on a timer for the same
 * reason. Trimming runs only while conversions happen and shortly after, so an idle process
 * does no work for it.
 */
@Injectable()
export class NativeHeapTrimmer implements OnApplicationShutdown {
  private readonly logger = new Logger(NativeHeapTrimmer.name);
  private readonly trims: Counter<string>;
  private readonly timer?: NodeJS.Timeout;
  private running = 0;
  private intervalsSinceWork = TRIMS_AFTER_WORK;
  private trimming = false;

  constructor(
    @Inject(CONVERSION_SETTINGS) settings: ConversionSettings,
    @Inject(MALLOC_TRIM) mallocTrim: MallocTrim | undefined,
    metrics: MetricsRegistry,
  ) {
    this.trims = metrics.counter('image_heap_trims_total', 'Times freed native memory was handed back to the system after conversions, by whether there was any', ['released'], combinations({ released: ['true', 'false'] }));
    if (settings.MEMORY_TRIM_INTERVAL_MS === 0) return;
    if (!mallocTrim) {
      this.logger.log('no glibc malloc_trim on this platform: freed native memory is left to the allocator');
      return;
    }
    this.timer = setInterval(() => void this.trimIfConverting(mallocTrim), settings.MEMORY_TRIM_INTERVAL_MS).unref();
  }

  /** Runs one conversion, so that the memory it frees is trimmed on the next intervals. */
  async around<T>(conversion: () => Promise<T>): Promise<T> {
    this.running += 1;
    try {
      return await conversion();
    } finally {
      this.running -= 1;
      this.intervalsSinceWork = 0;
    }
  }

  onApplicationShutdown(): void {
    clearInterval(this.timer);
  }

  private async trimIfConverting(mallocTrim: MallocTrim): Promise<void> {
    if (this.running > 0) this.intervalsSinceWork = 0;
    if (this.intervalsSinceWork >= TRIMS_AFTER_WORK || this.trimming) return;
    this.intervalsSinceWork += 1;
    this.trimming = true;
    try {
      this.trims.inc({ released: String(await mallocTrim()) });
    } catch (error) {
      this.logger.warn(`malloc_trim failed: ${(error as Error).message}`);
    } finally {
      this.trimming = false;
    }
  }
}
