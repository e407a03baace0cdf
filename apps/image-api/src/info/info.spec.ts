import { NestFastifyApplication } from '@nestjs/platform-fastify';
import { loadConfig } from '@platform/service-kit';
import { http, testAppEnv } from '@platform/testing';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import packageJson from '../../../../package.json';
import { ImageApiConfig } from '../config/image-api.config';
import { serveImageApi } from '../image-api.app';

describe('GET /info', () => {
  let app: NestFastifyApplication;
  let url: string;

  beforeAll(async () => {
    app = await serveImageApi(loadConfig(ImageApiConfig, testAppEnv({ MAX_FILE_BYTES: '1048576', MAX_PIXELS: '4000000' })));
    url = await app.getUrl();
  });
  afterAll(() => app.close());

  it('describes formats, defaults and the configured limits without a token', async () => {
    const res = await http(url, 'GET', '/info');
    expect(res.status).toBe(200);
    expect(res.body).toEqual({
      name: 'Image Conversion API',
      version: packageJson.version,
      formats: { input: expect.any(Array), output: ['webp', 'avif'] },
      defaults: { format: 'webp', quality: { webp: 85, avif: 80 } },
      limits: { max_file_bytes: 1048576, max_pixels: 4000000, max_files_per_batch: 10 },
    });
    expect(res.body.formats.input).toEqual(expect.arrayContaining(['jpeg', 'png', 'webp', 'avif', 'gif', 'tiff']));
    expect(res.body.formats.input).not.toContain('svg');
  });
});

describe('ImageApiConfig limits', () => {
  it('defaults to 25 MB files and 50 megapixels', () => {
    expect(loadConfig(ImageApiConfig, {})).toMatchObject({ MAX_FILE_BYTES: 25 * 1024 * 1024, MAX_PIXELS: 50_000_000, PORT: 3100 });
  });

  it('refuses limits that are not positive integers, naming them', () => {
    expect(() => loadConfig(ImageApiConfig, { MAX_FILE_BYTES: '25MB', MAX_PIXELS: '0' })).toThrow(/MAX_FILE_BYTES="25MB"[\s\S]*MAX_PIXELS=0/);
  });
});
