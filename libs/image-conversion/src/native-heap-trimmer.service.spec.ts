import { Logger } from '@nestjs/common';
import { MetricsRegistry } from '@platform/service-kit';
import { photoJpeg } from '@platform/testing';
import { readFileSync } from 'node:fs';
import sharp from 'sharp';
import { afterEach, describe, expect, it, vi } from 'vitest';
import { loadMallocTrim } from './malloc-trim';
import { NativeHeapTrimmer } from './native-heap-trimmer.service';

const INTERVAL_MS = 1_000;

describe('NativeHeapTrimmer', () => {
  const started: NativeHeapTrimmer[] = [];
  afterEach(() => {
    started.splice(0).forEach((trimmer) => trimmer.onApplicationShutdown());
    vi.useRealTimers();
  });

  const trimmerWith = (mallocTrim: (() => Promise<boolean>) | undefined, interval = INTERVAL_MS) => {
    const trimmer = new NativeHeapTrimmer({ MAX_PIXELS: 1, AVIF_EFFORT: 0, WEBP_EFFORT: 0, SHARP_CONCURRENCY: 1, MEMORY_TRIM_INTERVAL_MS: interval }, mallocTrim, new MetricsRegistry());
    started.push(trimmer);
    return trimmer;
  };
  const intervals = (count: number) => vi.advanceTimersByTimeAsync(count * INTERVAL_MS);

  it('does nothing while no image is converted', async () => {
    vi.useFakeTimers();
    const mallocTrim = vi.fn(async () => true);
    trimmerWith(mallocTrim);
    await intervals(5);
    expect(mallocTrim).not.toHaveBeenCalled();
  });

  it('trims on every interval while a conversion runs and on the two after the last one ends', async () => {
    vi.useFakeTimers();
    const mallocTrim = vi.fn(async () => true);
    const trimmer = trimmerWith(mallocTrim);
    let finish!: () => void;
    const conversion = trimmer.around(() => new Promise<void>((resolve) => (finish = resolve)));
    await intervals(3);
    expect(mallocTrim).toHaveBeenCalledTimes(3);
    finish();
    await conversion;
    await intervals(5);
    expect(mallocTrim).toHaveBeenCalledTimes(5);

    await trimmer.around(async () => 'short');
    await intervals(5);
    expect(mallocTrim).toHaveBeenCalledTimes(7);
  });

  it('never trims when the interval is 0 or the platform has no malloc_trim, and says so for the latter', async () => {
    vi.useFakeTimers();
    const log = vi.spyOn(Logger.prototype, 'log').mockImplementation(() => undefined);
    const mallocTrim = vi.fn(async () => true);
    await trimmerWith(mallocTrim, 0).around(async () => 'converted');
    await expect(trimmerWith(undefined).around(async () => 'converted')).resolves.toBe('converted');
    await intervals(5);
    expect(mallocTrim).not.toHaveBeenCalled();
    expect(log).toHaveBeenCalledTimes(1);
    expect(log.mock.calls[0][0]).toMatch(/no glibc malloc_trim/);
    log.mockRestore();
  });

  it('passes a failed conversion on and trims after it all the same, and survives a failing trim', async () => {
    vi.useFakeTimers();
    const warn = vi.spyOn(Logger.prototype, 'warn').mockImplementation(() => undefined);
    const mallocTrim = vi.fn(async () => {
      throw new Error('no trim today');
    });
    const trimmer = trimmerWith(mallocTrim);
    await expect(trimmer.around(() => Promise.reject(new Error('damaged pixels')))).rejects.toThrow('damaged pixels');
    await intervals(3);
    expect(mallocTrim).toHaveBeenCalledTimes(2);
    expect(warn).toHaveBeenCalledWith('malloc_trim failed: no trim today');
    warn.mockRestore();
  });

  it('does not start a trim while the previous one is still running', async () => {
    vi.useFakeTimers();
    let release!: (released: boolean) => void;
    const mallocTrim = vi.fn(() => new Promise<boolean>((resolve) => (release = resolve)));
    const trimmer = trimmerWith(mallocTrim);
    await trimmer.around(async () => 'converted');
    await intervals(2);
    expect(mallocTrim).toHaveBeenCalledTimes(1);
    release(true);
    await intervals(1);
    expect(mallocTrim).toHaveBeenCalledTimes(2);
  });
});

describe('glibc malloc_trim', () => {
  const anonymousKiB = () => Number(/^RssAnon:\s+(\d+) kB$/m.exec(readFileSync('/proc/self/status', 'utf8'))![1]);

  it('hands back what libvips freed in the arenas after conversions', async () => {
    const mallocTrim = await loadMallocTrim();
    expect(mallocTrim).toBeTypeOf('function');
    // With glibc's defaults (as in tests), the threshold for mapping buffers of their own rises
    // after the first large free, so later pixel buffers land in the arenas and stay there.
    const photo = await photoJpeg(3000, 2000);
    for (let i = 0; i < 4; i += 1) await sharp(photo).webp().toBuffer();
    const before = anonymousKiB();
    expect(await mallocTrim!()).toBe(true);
    expect(anonymousKiB()).toBeLessThan(before);
  });
});
