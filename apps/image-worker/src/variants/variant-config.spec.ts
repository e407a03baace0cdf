import { ConfigError, loadConfig } from '@platform/service-kit';
import { buildApp, http, startBuiltApp, testAppEnv } from '@platform/testing';
import { randomUUID } from 'node:crypto';
import { beforeAll, describe, expect, it } from 'vitest';
import { ImageWorkerConfig } from '../config/image-worker.config';

describe('ImageWorkerConfig', () => {
  it('sweeps every minute, gives a variant ten rounds by default and reads the conversion settings', () => {
    expect(loadConfig(ImageWorkerConfig, {})).toMatchObject({ VARIANT_SWEEP_INTERVAL_MS: 60_000, VARIANT_MAX_ROUNDS: 10, AVIF_EFFORT: 2, WEBP_EFFORT: 4, MAX_PIXELS: 50_000_000 });
    expect(loadConfig(ImageWorkerConfig, { VARIANT_SWEEP_INTERVAL_MS: '300', AVIF_EFFORT: '5' })).toMatchObject({ VARIANT_SWEEP_INTERVAL_MS: 300, AVIF_EFFORT: 5 });
  });

  it.each(['0', '1001', 'many'])('refuses VARIANT_MAX_ROUNDS=%s, naming it', (value) => {
    expect(() => loadConfig(ImageWorkerConfig, { VARIANT_MAX_ROUNDS: value })).toThrow(/VARIANT_MAX_ROUNDS=/);
  });

  it.each(['99', '2.5', 'abc'])('refuses VARIANT_SWEEP_INTERVAL_MS=%s, naming it', (value) => {
    const load = () => loadConfig(ImageWorkerConfig, { VARIANT_SWEEP_INTERVAL_MS: value });
    expect(load).toThrow(ConfigError);
    expect(load).toThrow(new RegExp(`VARIANT_SWEEP_INTERVAL_MS="?${value}"?: VARIANT_SWEEP_INTERVAL_MS must`));
  });
});

describe('image-worker as a process', () => {
  beforeAll(async () => {
    await buildApp('image-worker');
  });

  it('exits with code 1 and a message naming an invalid VARIANT_SWEEP_INTERVAL_MS', async () => {
    const proc = startBuiltApp('image-worker', testAppEnv({ VARIANT_SWEEP_INTERVAL_MS: '50' }));

    expect(await proc.exit).toEqual({ code: 1, signal: null });
    expect(proc.stderr()).toMatch(/VARIANT_SWEEP_INTERVAL_MS=50: VARIANT_SWEEP_INTERVAL_MS must not be less than 100/);
  });

  it('stops its sweep on SIGTERM and exits 0', async () => {
    // A bucket of its own: this worker's sweep must find nothing of other tests' to queue.
    const proc = startBuiltApp('image-worker', testAppEnv({ LOG_LEVEL: 'info', VARIANT_SWEEP_INTERVAL_MS: '100', S3_BUCKET: `variants-${randomUUID().slice(0, 8)}` }));
    const url = await proc.listening;
    expect((await http(url, 'GET', '/health')).status).toBe(200);

    proc.child.kill('SIGTERM');
    expect(await proc.exit).toEqual({ code: 0, signal: null });
  });
});
