import { NestFastifyApplication } from '@nestjs/platform-fastify';
import { ImageObjectStore, imageId } from '@platform/image-conversion';
import { TokenService } from '@platform/image-tokens';
import { loadConfig } from '@platform/service-kit';
import { animatedGif, exifHasGps, http, photoJpeg, pngDeclaring, pollUntil, postForm, solidPng, SVG_IMAGE, testAppEnv } from '@platform/testing';
import { randomBytes } from 'node:crypto';
import sharp from 'sharp';
import { DataSource } from 'typeorm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { ImageApiConfig } from '../config/image-api.config';
import { serveImageApi } from '../image-api.app';

const fatal = (fatalStatus: boolean) => ({ error_message: expect.any(String), error_fatal_status: fatalStatus });

describe('image conversion over HTTP', () => {
  // A bucket of its own: reuse of stored objects must come from this run, never from an earlier one.
  // The quota race below sends 20 requests of one token at once, past the default concurrency caps.
  const config = loadConfig(
    ImageApiConfig,
    testAppEnv({
      CDN_URL: 'https://cdn.test/img/',
      S3_BUCKET: `convert-${randomBytes(4).toString('hex')}`,
      CONCURRENT_REQUESTS_PER_TOKEN: '20',
      CONCURRENT_REQUESTS_PER_PROCESS: '20',
      MEMORY_TRIM_INTERVAL_MS: '100',
    }),
  );
  let app: NestFastifyApplication;
  let url: string;
  let tokens: TokenService;
  let photo: Buffer;
  let small: Buffer;

  beforeAll(async () => {
    app = await serveImageApi(config);
    url = await app.getUrl();
    tokens = app.get(TokenService);
    [photo, small] = await Promise.all([photoJpeg(1600, 1200), photoJpeg(320, 240)]);
  });
  afterAll(() => app?.close());

  const newToken = async (limit?: number) => (await tokens.create('free', limit ?? null)).token;
  const usage = async (token: string) => (await http(url, 'GET', `/access-token/${token}`)).body.api_limit_usage;
  const convert = (token: string | undefined, file: Buffer, fields: Record<string, string> = {}) =>
    postForm(url, '/convert', { token, files: [['file', file, 'upload.jpg']], fields });
  const fromBucket = (key: string) => fetch(`${config.S3_ENDPOINT}/${config.S3_BUCKET}/${key}`);
  /** The sources kept in storage for the other format of image `id`. */
  const pendingOf = async (id: string) => {
    const kept = [];
    for await (const variant of app.get(ImageObjectStore).pendingBefore(new Date(Date.now() + 60_000))) if (variant.imageId === id) kept.push(variant);
    return kept;
  };

  describe('POST /convert', () => {
    it('converts a JPEG to a bounded WebP with the documented headers and stores it', async () => {
      const token = await newToken();
      const res = await convert(token, photo, { max_width: '800' });
      expect(res.status).toBe(200);
      expect(res.headers.get('content-type')).toBe('image/webp');
      const meta = await sharp(res.bytes).metadata();
      expect([meta.format, meta.width, meta.height]).toEqual(['webp', 800, 600]);
      const id = res.headers.get('x-cdn-image-id')!;
      expect(id).toMatch(/^[0-9a-f]{8}-[0-9a-f]{4}-5[0-9a-f]{3}-[89ab][0-9a-f]{3}-[0-9a-f]{12}$/);
      expect(res.headers.get('x-original-size')).toBe(String(photo.length));
      expect(res.headers.get('x-converted-size')).toBe(String(res.bytes.length));
      expect(res.headers.get('x-savings')).toBe(`${Math.round((1 - res.bytes.length / photo.length) * 100)}%`);
      expect(res.headers.get('x-processing-time')).toMatch(/^\d+ms$/);
      expect(res.headers.get('x-cdn-url-webp')).toBe(`https://cdn.test/img/${id}.webp`);
      expect(res.headers.get('x-cdn-url-avif')).toBe(`https://cdn.test/img/${id}.avif`);

      const stored = await fromBucket(`${id}.webp`);
      expect(stored.status).toBe(200);
      expect(stored.headers.get('content-type')).toBe('image/webp');
      expect(stored.headers.get('cache-control')).toBe('public, max-age=31536000, immutable');
      expect(Buffer.from(await stored.arrayBuffer()).equals(res.bytes)).toBe(true);
      expect(await usage(token)).toBe(1);
    });

    it('converts to AVIF with its own default quality and never enlarges', async () => {
      const res = await convert(await newToken(), small, { format: 'avif', max_width: '1000', max_height: '1000' });
      expect(res.status).toBe(200);
      expect(res.headers.get('content-type')).toBe('image/avif');
      const meta = await sharp(res.bytes).metadata();
      expect([meta.format, meta.compression, meta.width, meta.height]).toEqual(['heif', 'av1', 320, 240]);
    });

    it('fits inside both bounds, keeping the aspect ratio', async () => {
      const res = await convert(await newToken(), photo, { max_width: '1000', max_height: '300' });
      const meta = await sharp(res.bytes).metadata();
      expect([meta.width, meta.height]).toEqual([400, 300]);
    });

    it('turns the image upright by its EXIF orientation and drops the EXIF data', async () => {
      // Orientation 6: stored landscape, shown rotated 90° clockwise (portrait).
      const rotated = await photoJpeg(400, 200, { orientation: 6 });
      const res = await convert(await newToken(), rotated);
      const meta = await sharp(res.bytes).metadata();
      expect([meta.width, meta.height, meta.orientation, meta.exif]).toEqual([200, 400, undefined, undefined]);
    });

    it('keeps the original private: anyone may read the outputs, stripped of GPS, but neither list the bucket nor read the source', async () => {
      const located = await photoJpeg(200, 150, { gps: true });
      expect(exifHasGps((await sharp(located).metadata()).exif)).toBe(true);
      const res = await convert(await newToken(), located);
      expect(res.status).toBe(200);
      expect((await sharp(res.bytes).metadata()).exif).toBeUndefined();
      const id = res.headers.get('x-cdn-image-id')!;
      expect((await fromBucket(`${id}.webp`)).status).toBe(200);

      const store = app.get(ImageObjectStore);
      const pending = [];
      for await (const variant of store.pendingBefore(new Date(Date.now() + 60_000))) if (variant.imageId === id) pending.push(variant);
      expect(pending.map((variant) => variant.format)).toEqual(['avif']);
      expect((await store.readPending(pending[0].key))?.source.equals(located)).toBe(true);
      expect((await fromBucket(pending[0].key)).status).toBe(403);
      expect((await fromBucket(encodeURIComponent(pending[0].key))).status).toBe(403);
      expect((await fromBucket('?list-type=2&max-keys=3')).status).toBe(403);
      expect((await fromBucket('?prefix=pending/')).status).toBe(403);
    });

    it('keeps an animation in WebP and gives AVIF its first frame, both bounded', async () => {
      const gif = await animatedGif(120, 80, 6);
      const webp = await sharp((await convert(await newToken(), gif, { max_width: '60' })).bytes).metadata();
      expect([webp.format, webp.width, webp.pageHeight ?? webp.height, webp.pages]).toEqual(['webp', 60, 40, 6]);
      const avif = await sharp((await convert(await newToken(), gif, { max_width: '60', format: 'avif' })).bytes).metadata();
      expect([avif.compression, avif.width, avif.height]).toEqual(['av1', 60, 40]);
    });

    it('keeps the colour profile', async () => {
      const tagged = await sharp(small).withIccProfile('p3').jpeg().toBuffer();
      const res = await convert(await newToken(), tagged);
      expect((await sharp(res.bytes).metadata()).icc).toBeDefined();
    });

    it('reports negative savings when the output is larger than the input', async () => {
      const tiny = await solidPng(8, 8);
      const res = await convert(await newToken(), tiny, { format: 'avif' });
      expect(res.status).toBe(200);
      const savings = Number(res.headers.get('x-savings')!.replace('%', ''));
      expect(savings).toBe(Math.round((1 - res.bytes.length / tiny.length) * 100));
      expect(savings).toBeLessThan(0);
    });

    it('gives the same upload the same id, serves it from storage, and counts each conversion', async () => {
      const token = await newToken();
      const first = await convert(token, photo, { quality: '70' });
      const second = await convert(token, photo, { quality: '70' });
      expect(second.headers.get('x-cdn-image-id')).toBe(first.headers.get('x-cdn-image-id'));
      expect(second.bytes.equals(first.bytes)).toBe(true);
      expect(await usage(token)).toBe(2);
      const otherQuality = await convert(token, photo, { quality: '71' });
      expect(otherQuality.headers.get('x-cdn-image-id')).not.toBe(first.headers.get('x-cdn-image-id'));
    });

    it('counts encoded and reused conversions, encoding time and pixels on /metrics', async () => {
      const metric = async (pattern: RegExp) => Number(pattern.exec((await http(url, 'GET', '/metrics')).text)?.[1] ?? 0);
      const encoded = /^image_conversions_total\{format="webp",source="encoded"\} (\d+)$/m;
      const stored = /^image_conversions_total\{format="webp",source="stored"\} (\d+)$/m;
      const timed = /^image_encode_duration_seconds_count\{format="webp"\} (\d+)$/m;
      const pixels = /^image_encoded_pixels_total\{format="webp"\} (\d+)$/m;
      const before = await Promise.all([encoded, stored, timed, pixels].map(metric));
      const token = await newToken();
      const first = await convert(token, small, { quality: '33' });
      await convert(token, small, { quality: '33' });
      const { width, height } = await sharp(first.bytes).metadata();
      expect(await Promise.all([encoded, stored, timed, pixels].map(metric))).toEqual([before[0] + 1, before[1] + 1, before[2] + 1, before[3] + width! * height!]);
    });

    it('hands the memory a conversion freed back to the system afterwards, counted on /metrics', async () => {
      const trims = async () => [...(await http(url, 'GET', '/metrics')).text.matchAll(/^image_heap_trims_total\{released="(?:true|false)"\} (\d+)$/gm)].reduce((sum, [, n]) => sum + Number(n), 0);
      const before = await trims();
      await convert(await newToken(), photo);
      await pollUntil(trims, (count) => count > before, { what: 'a trim after the conversion' });
      // Trims go on for two intervals after the conversion, then stop while the process is idle.
      const pause = () => new Promise((resolve) => setTimeout(resolve, 600));
      await pause();
      const settled = await trims();
      expect(settled).toBeGreaterThanOrEqual(before + 2);
      await pause();
      expect(await trims()).toBe(settled);
    });

    it('keeps the source once for the other format of a new image, and not again for one answered from storage', async () => {
      const token = await newToken();
      const id = imageId(small, { format: 'webp', quality: 34 });
      await convert(token, small, { quality: '34' });
      expect((await pendingOf(id)).map(({ format }) => format)).toEqual(['avif']);
      const again = await convert(token, small, { quality: '34' });
      expect(again.headers.get('x-cdn-image-id')).toBe(id);
      expect(await pendingOf(id)).toHaveLength(1);
    });

    it('stores both formats of one conversion under one id whichever is asked first', async () => {
      const token = await newToken();
      const webp = await convert(token, small, { max_width: '200' });
      const avif = await convert(token, small, { max_width: '200', format: 'avif' });
      expect(avif.headers.get('x-cdn-image-id')).toBe(webp.headers.get('x-cdn-image-id'));
      expect(avif.headers.get('content-type')).toBe('image/avif');
    });

    it('takes the token from the access_token form field', async () => {
      const token = await newToken();
      const res = await convert(undefined, small, { access_token: token });
      expect(res.status).toBe(200);
      expect(await usage(token)).toBe(1);
    });

    it('takes parameters sent after the file', async () => {
      const res = await postForm(url, '/convert', { fields: { access_token: await newToken() }, files: [['file', small]], fieldsAfterFiles: { format: 'avif', max_width: '100' } });
      expect(res.status).toBe(200);
      const meta = await sharp(res.bytes).metadata();
      expect([meta.compression, meta.width]).toEqual(['av1', 100]);
    });

    it('refuses a file that comes before the access_token field with 401, reading nothing', async () => {
      const token = await newToken();
      const res = await postForm(url, '/convert', { files: [['file', small]], fieldsAfterFiles: { access_token: token } });
      expect([res.status, res.json]).toEqual([401, fatal(true)]);
      expect(res.json.error_message).toMatch(/access_token field first/);
      expect(await usage(token)).toBe(0);
    });

    it('answers 401 without a token or with an unknown one, and 403 for an inactive subscription', async () => {
      expect([(await convert(undefined, small)).status, (await convert(undefined, small)).json]).toEqual([401, fatal(true)]);
      const unknown = await convert(`img_${'Z'.repeat(40)}`, small);
      expect([unknown.status, unknown.json]).toEqual([401, fatal(true)]);
      const formUnknown = await convert(undefined, small, { access_token: 'nope' });
      expect([formUnknown.status, formUnknown.json]).toEqual([401, fatal(true)]);
      const { token, subscriptionId } = await tokens.create('pro');
      await app.get(DataSource).query('UPDATE image.subscriptions SET active = false WHERE id = $1', [subscriptionId]);
      const inactive = await convert(token, small);
      expect([inactive.status, inactive.json]).toEqual([403, fatal(true)]);
    });

    it('refuses the conversion past the limit with the limit body, as the status endpoint does', async () => {
      const token = await newToken(3);
      for (let i = 0; i < 3; i++) expect((await convert(token, small, { quality: String(50 + i) })).status).toBe(200);
      const refused = await convert(token, small, { quality: '60' });
      expect([refused.status, refused.json]).toEqual([402, { error_message: expect.any(String), error_fatal_status: false, api_limit_usage: 3, api_limit_max: 3 }]);
      const status = await http(url, 'GET', `/access-token/${token}`);
      expect([status.status, status.body]).toEqual([402, refused.json]);
    });

    it('lets exactly the limit through when conversions arrive at once', async () => {
      const token = await newToken(10);
      const results = await Promise.all(Array.from({ length: 20 }, (_, i) => convert(token, small, { quality: String(40 + i) })));
      const statuses = results.map((r) => r.status);
      expect(statuses.filter((s) => s === 200)).toHaveLength(10);
      expect(statuses.filter((s) => s === 402)).toHaveLength(10);
      expect(await usage(token)).toBe(10);
    });
  });

  describe('POST /convert/batch', () => {
    const batch = (token: string | undefined, files: Buffer[], fields: Record<string, string> = {}) =>
      postForm(url, '/convert/batch', { token, files: files.map((data, i): [string, Buffer, string] => ['files', data, `image-${i}.bin`]), fields });

    it('converts a mixed batch in order and reports the corrupt file in its place', async () => {
      const token = await newToken();
      const pngs = await Promise.all([solidPng(300, 200), solidPng(64, 64)]);
      const jpegs = await Promise.all([200, 240, 280, 320, 360, 400, 440].map((w) => photoJpeg(w, 150)));
      const files = [...pngs.slice(0, 1), ...jpegs.slice(0, 4), photo.subarray(0, 5000), ...jpegs.slice(4), pngs[1]];
      const res = await batch(token, files, { format: 'avif', quality: '60', max_width: '250' });
      expect(res.status).toBe(200);
      expect(res.json).toMatchObject({ success: false, totalProcessed: 10, successCount: 9 });
      expect(res.json.results.map((r: { filename: string }) => r.filename)).toEqual(files.map((_, i) => `image-${i}.bin`));
      expect(res.json.results[5]).toEqual({ filename: 'image-5.bin', success: false, error_message: expect.stringMatching(/decoded/) });
      const first = res.json.results[0];
      expect(first).toEqual({
        filename: 'image-0.bin',
        success: true,
        format: 'avif',
        originalSize: files[0].length,
        convertedSize: expect.any(Number),
        savings: Math.round((1 - first.convertedSize / files[0].length) * 100),
        imageId: expect.stringMatching(/^[0-9a-f-]{36}$/),
        cdnUrls: { webp: `https://cdn.test/img/${first.imageId}.webp`, avif: `https://cdn.test/img/${first.imageId}.avif` },
      });
      const stored = await fromBucket(`${res.json.results[4].imageId}.avif`);
      expect((await sharp(Buffer.from(await stored.arrayBuffer())).metadata()).width).toBe(250);
      expect(await usage(token)).toBe(9);
    });

    it('answers success true when every file converted, with the token in the form', async () => {
      const token = await newToken();
      const res = await batch(undefined, [small, await solidPng(50, 50)], { access_token: token });
      expect(res.json).toMatchObject({ success: true, totalProcessed: 2, successCount: 2 });
      expect(res.json.results.every((r: { format: string }) => r.format === 'webp')).toBe(true);
    });

    it('converts what fits under the limit and fails the rest with the limit message', async () => {
      const token = await newToken(3);
      const files = await Promise.all([100, 110, 120, 130, 140].map((w) => photoJpeg(w, 80)));
      const res = await batch(token, files);
      expect(res.status).toBe(200);
      expect(res.json).toMatchObject({ success: false, totalProcessed: 5, successCount: 3 });
      expect(res.json.results.map((r: { success: boolean }) => r.success)).toEqual([true, true, true, false, false]);
      expect(res.json.results[3].error_message).toMatch(/limit/);
      expect(await usage(token)).toBe(3);
      const exhausted = await batch(token, files.slice(0, 2));
      expect([exhausted.status, exhausted.json]).toEqual([402, { error_message: expect.any(String), error_fatal_status: false, api_limit_usage: 3, api_limit_max: 3 }]);
    });

    it('refuses 11 files with 413 and none with 422, converting nothing', async () => {
      const token = await newToken();
      const eleven = await batch(token, Array.from({ length: 11 }, () => small));
      expect([eleven.status, eleven.json]).toEqual([413, fatal(false)]);
      const none = await batch(token, [], { format: 'webp' });
      expect([none.status, none.json]).toEqual([422, fatal(false)]);
      const badQuality = await batch(token, [small], { quality: '101' });
      expect([badQuality.status, badQuality.json]).toEqual([422, fatal(false)]);
      expect(await usage(token)).toBe(0);
    });
  });

  it('documents both routes as multipart with the token, the result headers and the error statuses', async () => {
    const { paths } = (await http(url, 'GET', '/openapi.json')).body;
    for (const path of ['/convert', '/convert/batch']) {
      const operation = paths[path].post;
      expect(Object.keys(operation.requestBody.content)).toEqual(['multipart/form-data']);
      expect(operation.security).toEqual([{ 'access-token': [] }]);
      expect(Object.keys(operation.responses)).toEqual(expect.arrayContaining(['200', '401', '402', '403', '413', '415', '422', '429']));
      expect(operation.responses['429'].headers).toHaveProperty('Retry-After');
    }
    const { components } = (await http(url, 'GET', '/openapi.json')).body;
    expect(components.securitySchemes['access-token']).toMatchObject({ type: 'apiKey', in: 'header', name: 'X-Access-Token', description: expect.stringMatching(/form field access_token.*before the files/) });
    expect(components.schemas.ConvertParamsDto.properties.access_token.description).toMatch(/must come before the first file/);
    expect(Object.keys(paths['/convert'].post.responses['200'].headers)).toEqual(
      expect.arrayContaining(['X-Original-Size', 'X-Converted-Size', 'X-Savings', 'X-Processing-Time', 'X-CDN-Image-ID', 'X-CDN-URL-WebP', 'X-CDN-URL-AVIF']),
    );
  });

  describe('bad input', () => {
    let token: string;
    beforeAll(async () => {
      token = await newToken();
    });

    const refusals: [string, () => Promise<Buffer>, Record<string, string>, number][] = [
      ['an empty file', async () => Buffer.alloc(0), {}, 422],
      ['a file that is not an image', async () => Buffer.from('just some text, not pixels'), {}, 415],
      ['a truncated JPEG', async () => photo.subarray(0, Math.floor(photo.length / 2)), {}, 415],
      ['an SVG', async () => SVG_IMAGE, {}, 415],
      ['a PNG declaring 60,000×60,000 pixels', async () => pngDeclaring(60_000, 60_000), {}, 422],
      ['an animation whose frames add up to more pixels than the cap', async () => animatedGif(1000, 1000, 51), {}, 422],
      ['quality 0', async () => small, { quality: '0' }, 422],
      ['quality 101', async () => small, { quality: '101' }, 422],
      ['quality "abc"', async () => small, { quality: 'abc' }, 422],
      ['quality 85.5', async () => small, { quality: '85.5' }, 422],
      ['max_width -5', async () => small, { max_width: '-5' }, 422],
      ['max_height 0', async () => small, { max_height: '0' }, 422],
      ['format gif', async () => small, { format: 'gif' }, 422],
      ['an unknown field', async () => small, { colour: 'blue' }, 422],
    ];

    it.each(refusals)('refuses %s in the envelope without counting it', async (_, file, fields, status) => {
      const res = await convert(token, await file(), fields);
      expect([res.status, res.json]).toEqual([status, fatal(false)]);
      expect(await usage(token)).toBe(0);
    });

    it('keeps no source for the other format of an image whose pixels cannot be decoded', async () => {
      const truncated = photo.subarray(0, Math.floor(photo.length / 2));
      const res = await convert(token, truncated);
      expect(res.status).toBe(415);
      expect(await pendingOf(imageId(truncated, { format: 'webp' }))).toEqual([]);
    });

    it('names the bad parameter', async () => {
      const res = await convert(token, small, { quality: 'abc', max_width: '-5' });
      expect(res.json.error_message).toBe('quality must be an integer from 1 to 100; max_width must be a positive number');
    });

    it('refuses a 30 MB upload against the 25 MB cap with 413', async () => {
      expect(config.MAX_FILE_BYTES).toBe(25 * 1024 * 1024);
      const res = await convert(token, Buffer.alloc(30 * 1024 * 1024, 0xff));
      expect([res.status, res.json]).toEqual([413, fatal(false)]);
    });

    it('refuses a form without a file, a file under another name, and two files', async () => {
      const none = await postForm(url, '/convert', { token, fields: { format: 'webp' } });
      expect([none.status, none.json]).toEqual([422, fatal(false)]);
      const misnamed = await postForm(url, '/convert', { token, files: [['image', small]] });
      expect([misnamed.status, misnamed.json]).toEqual([422, fatal(false)]);
      const two = await postForm(url, '/convert', { token, files: [['file', small], ['file', small]] });
      expect([two.status, two.json]).toEqual([413, fatal(false)]);
    });

    it('refuses a body that is not multipart with 415 and a cut-off form with 400', async () => {
      const json = await http(url, 'POST', '/convert', { json: { file: 'x' }, headers: { 'x-access-token': token } });
      expect([json.status, json.body]).toEqual([415, fatal(false)]);
      const cut = await http(url, 'POST', '/convert', {
        body: '--b\r\nContent-Disposition: form-data; name="file"; filename="a.jpg"\r\n\r\nabc',
        headers: { 'x-access-token': token, 'content-type': 'multipart/form-data; boundary=b' },
      });
      expect([cut.status, cut.body]).toEqual([400, fatal(false)]);
    });

    it('keeps serving after all of that', async () => {
      expect((await convert(token, small)).status).toBe(200);
      expect((await http(url, 'GET', '/health')).status).toBe(200);
    });
  });
});

describe('POST /convert while storage is away', () => {
  let app: NestFastifyApplication;

  beforeAll(async () => {
    app = await serveImageApi(loadConfig(ImageApiConfig, testAppEnv({ S3_ENDPOINT: 'http://127.0.0.1:1' })));
  });
  afterAll(() => app?.close());

  it('answers 503 in the envelope and gives the conversion back', async () => {
    const url = await app.getUrl();
    const { token } = await app.get(TokenService).create('free');
    const res = await postForm(url, '/convert', { token, files: [['file', await photoJpeg(64, 48)]] });
    expect([res.status, res.json]).toEqual([503, fatal(false)]);
    expect((await http(url, 'GET', `/access-token/${token}`)).body.api_limit_usage).toBe(0);
  });
});
