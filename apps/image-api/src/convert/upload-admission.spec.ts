import { NestFastifyApplication } from '@nestjs/platform-fastify';
import { TokenService } from '@platform/image-tokens';
import { loadConfig } from '@platform/service-kit';
import { buildApp, photoJpeg, postForm, startBuiltApp, testAppEnv } from '@platform/testing';
import { type IncomingHttpHeaders, request } from 'node:http';
import { mkdtemp, readdir, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { ImageApiConfig } from '../config/image-api.config';
import { serveImageApi } from '../image-api.app';

const BOUNDARY = 'upload-admission-boundary';
/** What every upload below claims to send; none of them ever sends more than a sliver of it. */
const DECLARED_BYTES = 200 * 1024 * 1024;

interface Answer {
  status: number;
  headers: IncomingHttpHeaders;
  body: { error_message: string; error_fatal_status: boolean };
}

/**
 * A multipart upload written by hand, so the test decides how much of the body goes out and
 * can see the answer arrive while most of the declared body was never sent.
 */
function startUpload(url: string, route: string, headers: Record<string, string> = {}) {
  const req = request(new URL(route, url), {
    method: 'POST',
    headers: { ...headers, 'content-type': `multipart/form-data; boundary=${BOUNDARY}`, 'content-length': String(DECLARED_BYTES) },
  });
  const answered = new Promise<Answer>((resolve, reject) => {
    req.on('response', (res) => {
      const chunks: Buffer[] = [];
      res.on('data', (chunk: Buffer) => chunks.push(chunk));
      res.on('end', () => resolve({ status: res.statusCode!, headers: res.headers, body: JSON.parse(Buffer.concat(chunks).toString('utf8')) }));
    });
    // Once answered, the server closes the connection under the rest of the body.
    req.on('error', reject);
  });
  // An upload the test aborts is never answered; that is no failure of its own.
  answered.catch(() => undefined);
  return {
    answered,
    field: (name: string, value: string) => req.write(`--${BOUNDARY}\r\nContent-Disposition: form-data; name="${name}"\r\n\r\n${value}\r\n`),
    fileStart: (name: string) => req.write(`--${BOUNDARY}\r\nContent-Disposition: form-data; name="${name}"; filename="big.jpg"\r\nContent-Type: image/jpeg\r\n\r\n`),
    write: (bytes: Buffer) => new Promise<void>((resolve) => req.write(bytes, () => resolve())),
    abort: () => req.destroy(),
  };
}

const fatal = (fatalStatus: boolean) => ({ error_message: expect.any(String), error_fatal_status: fatalStatus });

describe('conversion uploads are admitted before they are read', () => {
  let app: NestFastifyApplication;
  let url: string;
  let tokens: TokenService;
  let uploadsDir: string;
  let previousTmpdir: string | undefined;
  let small: Buffer;

  beforeAll(async () => {
    // The app keeps its uploads under os.tmpdir(); a directory of this test's own shows them.
    uploadsDir = await mkdtemp(path.join(tmpdir(), 'admission-spec-'));
    previousTmpdir = process.env.TMPDIR;
    process.env.TMPDIR = uploadsDir;
    app = await serveImageApi(loadConfig(ImageApiConfig, testAppEnv({ CONCURRENT_REQUESTS_PER_TOKEN: '1', CONCURRENT_REQUESTS_PER_PROCESS: '3' })));
    url = await app.getUrl();
    tokens = app.get(TokenService);
    small = await photoJpeg(64, 48);
  });
  afterAll(async () => {
    await app?.close();
    if (previousTmpdir === undefined) delete process.env.TMPDIR;
    else process.env.TMPDIR = previousTmpdir;
    await rm(uploadsDir, { recursive: true, force: true });
  });

  const newToken = async (limit?: number) => (await tokens.create('free', limit ?? null)).token;
  const uploadsOnDisk = async () => (await readdir(uploadsDir)).filter((name) => name.startsWith('image-upload-'));
  /** An admitted upload left half sent: it holds its slots and temp directory until aborted. */
  const holdUpload = async (baseUrl: string, token: string) => {
    const upload = startUpload(baseUrl, '/convert', { 'x-access-token': token });
    upload.fileStart('file');
    await upload.write(Buffer.alloc(64 * 1024));
    return upload;
  };

  it('answers an unknown X-Access-Token with 401 before the body is sent, and closes the connection', async () => {
    const upload = startUpload(url, '/convert/batch', { 'x-access-token': `img_${'Z'.repeat(40)}` });
    upload.fileStart('files');
    await upload.write(Buffer.alloc(1024 * 1024));
    const answer = await upload.answered;
    expect([answer.status, answer.body, answer.headers.connection]).toEqual([401, fatal(true), 'close']);
  });

  it('answers a token at its monthly limit with 402 before the body is sent', async () => {
    const { token, subscriptionId } = await tokens.create('free', 1);
    await tokens.consume(subscriptionId, 1);
    const upload = startUpload(url, '/convert', { 'x-access-token': token });
    upload.fileStart('file');
    const answer = await upload.answered;
    expect([answer.status, answer.body]).toEqual([402, { ...fatal(false), api_limit_usage: 1, api_limit_max: 1 }]);
  });

  /** A batch form with one text field, then the first megabyte of a file. */
  const batchAfterField = async (name: string, value: string) => {
    const upload = startUpload(url, '/convert/batch');
    upload.field(name, value);
    upload.fileStart('files');
    await upload.write(Buffer.alloc(1024 * 1024));
    return upload.answered;
  };

  it('answers an unknown access_token field with 401 as soon as the first file part begins', async () => {
    const answer = await batchAfterField('access_token', 'nope');
    expect([answer.status, answer.body, answer.headers.connection]).toEqual([401, fatal(true), 'close']);
  });

  it('answers a file part that comes before any access_token field with 401 naming the order', async () => {
    const answer = await batchAfterField('format', 'avif');
    expect([answer.status, answer.body]).toEqual([401, fatal(true)]);
    expect(answer.body.error_message).toMatch(/must come before the files/);
  });

  it('refuses a file over the size cap as soon as it passes the cap', async () => {
    const upload = startUpload(url, '/convert', { 'x-access-token': await newToken() });
    upload.fileStart('file');
    await upload.write(Buffer.alloc(26 * 1024 * 1024, 0xff));
    const answer = await upload.answered;
    expect([answer.status, answer.body, answer.headers.connection]).toEqual([413, fatal(false), 'close']);
  });

  it('keeps files in a temp directory of the request while it is received, and removes it after', async () => {
    const token = await newToken();
    const upload = startUpload(url, '/convert/batch', { 'x-access-token': token });
    upload.fileStart('files');
    await upload.write(Buffer.alloc(256 * 1024));
    await expect.poll(uploadsOnDisk).toHaveLength(1);
    upload.abort();
    await expect.poll(uploadsOnDisk).toEqual([]);
    expect((await postForm(url, '/convert', { token, files: [['file', small]] })).status).toBe(200);
    expect(await uploadsOnDisk()).toEqual([]);
  });

  it('lets a token have one request in progress here, refusing the next with 429 and Retry-After', async () => {
    const token = await newToken();
    const held = await holdUpload(url, token);
    await expect.poll(uploadsOnDisk).toHaveLength(1);

    const byHeader = await postForm(url, '/convert', { token, files: [['file', small]] });
    expect([byHeader.status, byHeader.json, byHeader.headers.get('retry-after')]).toEqual([429, fatal(false), '2']);
    const byField = await postForm(url, '/convert', { fields: { access_token: token }, files: [['file', small]] });
    expect([byField.status, byField.json]).toEqual([429, fatal(false)]);
    expect((await postForm(url, '/convert', { token: await newToken(), files: [['file', small]] })).status).toBe(200);

    held.abort();
    await expect.poll(async () => (await postForm(url, '/convert', { token, files: [['file', small]] })).status).toBe(200);
  });

  it("counts a token's requests across replicas", async () => {
    const replica = await serveImageApi(loadConfig(ImageApiConfig, testAppEnv({ CONCURRENT_REQUESTS_PER_TOKEN: '1' })));
    try {
      const token = await newToken();
      const held = await holdUpload(url, token);
      await expect.poll(uploadsOnDisk).toHaveLength(1);
      const elsewhere = await postForm(await replica.getUrl(), '/convert', { token, files: [['file', small]] });
      expect([elsewhere.status, elsewhere.headers.get('retry-after')]).toEqual([429, '2']);
      held.abort();
      await expect.poll(async () => (await postForm(await replica.getUrl(), '/convert', { token, files: [['file', small]] })).status).toBe(200);
    } finally {
      await replica.close();
    }
  });

  it('frees the slot of a replica killed mid-upload within seconds, never asking for a longer wait than that', { timeout: 120_000 }, async () => {
    await buildApp('image-api');
    const doomed = startBuiltApp('image-api', testAppEnv({ CONCURRENT_REQUESTS_PER_TOKEN: '1', LOG_LEVEL: 'info' }));
    const token = await newToken();
    const convert = () => postForm(url, '/convert', { token, files: [['file', small]] });
    const held = await holdUpload(await doomed.listening, token);
    // Admitted there (its temp directory exists) before anything else of the token is sent.
    await expect.poll(uploadsOnDisk, { timeout: 10_000 }).toHaveLength(1);
    expect((await convert()).status).toBe(429);

    doomed.child.kill('SIGKILL');
    await doomed.exit;
    held.abort();
    // A process killed outright leaves its upload's temp directory behind.
    await Promise.all((await uploadsOnDisk()).map((name) => rm(path.join(uploadsDir, name), { recursive: true, force: true })));
    const killedAt = Date.now();
    const waits: string[] = [];
    await expect
      .poll(
        async () => {
          const res = await convert();
          if (res.status === 429) waits.push(res.headers.get('retry-after')!);
          return res.status;
        },
        { timeout: 10_000, interval: 250 },
      )
      .toBe(200);
    expect(Date.now() - killedAt).toBeLessThan(6000);
    expect(waits.every((seconds) => ['1', '2'].includes(seconds))).toBe(true);
  });

  it('keeps the token cap within the process while Redis is unreachable, and goes on converting', async () => {
    const alone = await serveImageApi(loadConfig(ImageApiConfig, testAppEnv({ CONCURRENT_REQUESTS_PER_TOKEN: '1', REDIS_URL: 'redis://127.0.0.1:1' })));
    try {
      const aloneUrl = await alone.getUrl();
      const token = await newToken();
      const held = await holdUpload(aloneUrl, token);
      await expect.poll(uploadsOnDisk).toHaveLength(1);
      expect((await postForm(aloneUrl, '/convert', { token, files: [['file', small]] })).status).toBe(429);
      expect((await postForm(aloneUrl, '/convert', { token: await newToken(), files: [['file', small]] })).status).toBe(200);
      held.abort();
      await expect.poll(async () => (await postForm(aloneUrl, '/convert', { token, files: [['file', small]] })).status).toBe(200);
    } finally {
      await alone.close();
    }
  });

  it('refuses requests past the process cap with 429 before reading them', async () => {
    const held = await Promise.all([1, 2, 3].map(async () => holdUpload(url, await newToken())));
    await expect.poll(uploadsOnDisk).toHaveLength(3);
    const refused = startUpload(url, '/convert', { 'x-access-token': await newToken() });
    refused.fileStart('file');
    const answer = await refused.answered;
    expect([answer.status, answer.body, answer.headers['retry-after']]).toEqual([429, fatal(false), '2']);

    for (const upload of held) upload.abort();
    await expect.poll(uploadsOnDisk).toEqual([]);
    expect((await postForm(url, '/convert', { token: await newToken(), files: [['file', small]] })).status).toBe(200);
  });
});
