import { createImageClient, multipartForm, type ImagePaths } from '@platform/api-client';
import { http, photoJpeg, pollUntil, solidPng } from '@platform/testing';
import { randomInt } from 'node:crypto';
import sharp from 'sharp';
import { beforeAll, describe, expect, inject, it } from 'vitest';
import { stack } from './stack.config';

const { imageToken: token, limitedImageToken } = inject('credentials');

/** The image API with its generated types (libs/api-client): a changed contract fails the typecheck here. */
const images = (accessToken?: string) => createImageClient({ baseUrl: stack.imageUrl, accessToken });
type ConvertFields = Omit<ImagePaths['/convert']['post']['requestBody']['content']['multipart/form-data'], 'file'>;
const upload = (bytes: Buffer, name: string) => new File([new Uint8Array(bytes)], name);

const status = (accessToken: string) => http(stack.imageUrl, 'GET', `/access-token/${accessToken}`);
async function convert(file: Buffer, fields: ConvertFields, accessToken = token) {
  const { data, error, response } = await images(accessToken).POST('/convert', { body: { ...fields, file: upload(file, 'photo.jpg') }, bodySerializer: multipartForm, parseAs: 'arrayBuffer' as const });
  return { status: response.status, headers: response.headers, bytes: Buffer.from(data ?? new ArrayBuffer(0)), json: error };
}

const download = async (url: string) => {
  const response = await fetch(url);
  return { status: response.status, type: response.headers.get('content-type'), bytes: Buffer.from(await response.arrayBuffer()) };
};

describe('image-api', () => {
  let photo: Buffer;
  let height: number;

  beforeAll(async () => {
    // Another height on every run: the same upload would be served from storage, made by an earlier run.
    height = 300 + randomInt(100);
    photo = await photoJpeg(800, height * 2);
  });

  it('describes formats and limits without a token', async () => {
    const res = await http(stack.imageUrl, 'GET', '/info');
    expect(res.status).toBe(200);
    expect(res.body).toMatchObject({
      formats: { input: expect.arrayContaining(['jpeg', 'png', 'webp', 'avif']), output: ['webp', 'avif'] },
      defaults: { format: 'webp', quality: { webp: 85, avif: 80 } },
      limits: { max_file_bytes: expect.any(Number), max_pixels: expect.any(Number), max_files_per_batch: 10 },
    });
  });

  it('reports a new token unused', async () => {
    const res = await status(token);
    expect(res.status).toBe(200);
    expect(res.body).toEqual({ api_limit_usage: 0, api_limit_max: 500, api_subscription_active: true, api_subscription_premium: false });
  });

  it('converts to WebP within max_width, stores it behind the CDN and has image-worker make the AVIF', async () => {
    const res = await convert(photo, { format: 'webp', quality: 80, max_width: 400 });
    expect(res.status).toBe(200);
    expect(res.headers.get('content-type')).toBe('image/webp');
    expect(await sharp(res.bytes).metadata()).toMatchObject({ format: 'webp', width: 400, height });
    expect(res.headers.get('x-original-size')).toBe(String(photo.length));
    expect(res.headers.get('x-converted-size')).toBe(String(res.bytes.length));
    expect(res.headers.get('x-savings')).toBe(`${Math.round((1 - res.bytes.length / photo.length) * 100)}%`);
    expect(res.headers.get('x-processing-time')).toMatch(/^\d+ms$/);
    const id = res.headers.get('x-cdn-image-id');
    expect(id).toMatch(/^[0-9a-f]{8}-[0-9a-f]{4}-5[0-9a-f]{3}-[0-9a-f]{4}-[0-9a-f]{12}$/);

    const webpUrl = res.headers.get('x-cdn-url-webp')!;
    const webp = await download(webpUrl);
    expect(webp).toMatchObject({ status: 200, type: 'image/webp' });
    expect(webp.bytes.equals(res.bytes)).toBe(true);
    // The bucket behind the CDN lists nothing to anonymous clients, the pending originals least of all.
    expect((await fetch(`${webpUrl.slice(0, webpUrl.lastIndexOf('/'))}?list-type=2&prefix=pending/`)).status).toBe(403);

    const avifUrl = res.headers.get('x-cdn-url-avif')!;
    expect(avifUrl).toMatch(new RegExp(`/${id}\\.avif$`));
    await pollUntil(() => fetch(avifUrl, { method: 'HEAD' }).then((r) => r.status), (code) => code === 200, {
      timeoutMs: stack.variantTimeoutMs,
      intervalMs: 250,
      what: `image-worker's AVIF at ${avifUrl}`,
    });
    const avif = await download(avifUrl);
    expect(avif).toMatchObject({ status: 200, type: 'image/avif' });
    expect(await sharp(avif.bytes).metadata()).toMatchObject({ format: 'heif', compression: 'av1', width: 400, height });

    expect((await status(token)).body.api_limit_usage).toBe(1);
  });

  it('converts to AVIF on request', async () => {
    const res = await convert(await solidPng(120, 80), { format: 'avif' });
    expect(res.status).toBe(200);
    expect(res.headers.get('content-type')).toBe('image/avif');
    expect(await sharp(res.bytes).metadata()).toMatchObject({ compression: 'av1', width: 120, height: 80 });
  });

  it('converts a batch in which a corrupt file fails alone', async () => {
    const png = await solidPng(64, 48);
    const { data, response } = await images().POST('/convert/batch', {
      body: { access_token: token, format: 'webp', files: [upload(photo, 'photo.jpg'), upload(Buffer.from('this is not an image'), 'notes.jpg'), upload(png, 'logo.png')] },
      bodySerializer: multipartForm,
    });
    expect(response.status).toBe(200);
    const converted = (filename: string, originalSize: number) => ({
      filename,
      success: true,
      format: 'webp',
      originalSize,
      convertedSize: expect.any(Number),
      savings: expect.any(Number),
      imageId: expect.any(String),
      cdnUrls: { webp: expect.stringMatching(/\.webp$/), avif: expect.stringMatching(/\.avif$/) },
    });
    expect(data).toEqual({
      success: false,
      results: [converted('photo.jpg', photo.length), { filename: 'notes.jpg', success: false, error_message: expect.any(String) }, converted('logo.png', png.length)],
      totalProcessed: 3,
      successCount: 2,
    });
    const [first] = data!.results;
    const stored = await download(first.cdnUrls!.webp);
    expect(stored).toMatchObject({ status: 200, type: 'image/webp' });
  });

  it('answers 402 once a token has used its monthly limit', async () => {
    expect((await status(limitedImageToken)).body).toMatchObject({ api_limit_usage: 0, api_limit_max: 1 });
    expect((await convert(photo, { max_width: 100 }, limitedImageToken)).status).toBe(200);

    const limited = { error_message: expect.any(String), error_fatal_status: false, api_limit_usage: 1, api_limit_max: 1 };
    const res = await status(limitedImageToken);
    expect(res.status).toBe(402);
    expect(res.body).toEqual(limited);
    const refused = await convert(photo, { max_width: 100 }, limitedImageToken);
    expect(refused.status).toBe(402);
    expect(refused.json).toEqual(limited);
  });

  it('refuses an unknown token as fatal', async () => {
    const res = await convert(photo, {}, `img_${'x'.repeat(40)}`);
    expect(res.status).toBe(401);
    expect(res.json).toEqual({ error_message: expect.any(String), error_fatal_status: true });
  });
});
