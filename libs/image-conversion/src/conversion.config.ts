import { EnvInt } from '@platform/service-kit';
import { IsInt, Max, Min } from 'class-validator';

// A mixin constructor must take `any[]` (TypeScript rule for mixin classes).
// eslint-disable-next-line @typescript-eslint/no-explicit-any
type ConfigClass<T = object> = new (...args: any[]) => T;

/** How images are decoded and encoded, shared by the API (synchronous) and the worker (variants). */
export function withConversionConfig<B extends ConfigClass>(Base: B) {
  class ConversionSettings extends Base {
    /** Largest accepted image area, read from the header before anything is decoded. */
    @EnvInt() @IsInt() @Min(1) @Max(1_000_000_000)
    MAX_PIXELS = 50_000_000;

    /**
     * AVIF encoder effort (0-9). 2 encodes a 800×600 photo in about 0.15 s on one core; sharp's
     * default of 4 takes ten times as long for files under 1 % smaller, too slow for a
     * synchronous request.
     */
    @EnvInt() @IsInt() @Min(0) @Max(9)
    AVIF_EFFORT = 2;

    /** WebP encoder effort (0-6); sharp's default 4 is already fast. */
    @EnvInt() @IsInt() @Min(0) @Max(6)
    WEBP_EFFORT = 4;

    /**
     * libvips worker threads per image. One: a process converts several images side by side
     * (CONCURRENT_CONVERSIONS_PER_PROCESS), which keeps the cores busy without threads of one
     * image waiting for each other. 0 leaves it to sharp, which picks one thread per CPU core
     * whenever MALLOC_ARENA_MAX is set, as it is in the images.
     */
    @EnvInt() @IsInt() @Min(0) @Max(64)
    SHARP_CONCURRENCY = 1;

    /**
     * How often, while images are converted and for two intervals after, the memory glibc holds
     * freed is handed back to the system (malloc_trim); 0 never does.
     */
    @EnvInt() @IsInt() @Min(0) @Max(3_600_000)
    MEMORY_TRIM_INTERVAL_MS = 10_000;
  }
  return ConversionSettings;
}

export type ConversionSettings = Record<'MAX_PIXELS' | 'AVIF_EFFORT' | 'WEBP_EFFORT' | 'SHARP_CONCURRENCY' | 'MEMORY_TRIM_INTERVAL_MS', number>;

export const CONVERSION_SETTINGS = Symbol('CONVERSION_SETTINGS');
