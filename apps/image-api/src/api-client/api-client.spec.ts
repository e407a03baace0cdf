import { NestFastifyApplication } from '@nestjs/platform-fastify';
import { createImageClient, multipartForm } from '@platform/api-client';
import { TokenService } from '@platform/image-tokens';
import { loadConfig } from '@platform/service-kit';
import { describeApiClientContract, solidPng, testAppEnv } from '@platform/testing';
import sharp from 'sharp';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { ImageApiConfig } from '../config/image-api.config';
import { serveImageApi } from '../image-api.app';

const start = (env: NodeJS.ProcessEnv) => serveImageApi(loadConfig(ImageApiConfig, env));

describeApiClientContract({ service: 'image-api', start });

describe('the typed image client (libs/api-client) against image-api', () => {
  let app: NestFastifyApplication;
  let baseUrl: string;

  beforeAll(async () => {
    app = await start(testAppEnv());
    baseUrl = await app.getUrl();
  });
  afterAll(() => app.close());

  it('converts an image, and the token reports the conversion', async () => {
    const { token } = await app.get(TokenService).create('free');
    const images = createImageClient({ baseUrl, accessToken: token });
    const file = new File([new Uint8Array(await solidPng(120, 80))], 'logo.png', { type: 'image/png' });

    const { data, response } = await images.POST('/convert', { body: { format: 'webp' as const, max_width: 60, file }, bodySerializer: multipartForm, parseAs: 'arrayBuffer' });
    expect(response.status).toBe(200);
    expect(response.headers.get('content-type')).toBe('image/webp');
    expect(await sharp(Buffer.from(data!)).metadata()).toMatchObject({ format: 'webp', width: 60, height: 40 });
    expect(response.headers.get('x-cdn-url-webp')).toMatch(/\.webp$/);

    const usage = await images.GET('/access-token/{token}', { params: { path: { token } } });
    expect(usage.data).toMatchObject({ api_limit_usage: 1, api_subscription_active: true });
  });

  it('converts a batch, the token travelling as the form field before the files', async () => {
    const { token } = await app.get(TokenService).create('free');
    const images = createImageClient({ baseUrl });
    const files = [new File([new Uint8Array(await solidPng(40, 40))], 'a.png'), new File([new Uint8Array(await solidPng(30, 20))], 'b.png')];

    const { data, error } = await images.POST('/convert/batch', { body: { access_token: token, format: 'avif' as const, files }, bodySerializer: multipartForm });
    expect(error).toBeUndefined();
    expect(data).toMatchObject({ success: true, totalProcessed: 2, successCount: 2, results: [{ filename: 'a.png', format: 'avif' }, { filename: 'b.png', format: 'avif' }] });
  });

  it('answers a refused token as the typed error envelope', async () => {
    const images = createImageClient({ baseUrl, accessToken: `img_${'x'.repeat(40)}` });
    const { error, response } = await images.GET('/access-token/{token}', { params: { path: { token: `img_${'x'.repeat(40)}` } } });
    expect(response.status).toBe(401);
    expect(error).toEqual({ error_message: expect.any(String), error_fatal_status: true });
  });
});
