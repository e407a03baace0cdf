import { pollUntil } from '@platform/testing';
import { request } from 'node:http';
import { afterAll, describe, expect, it } from 'vitest';
import { convert, newImageToken, photo, sleep } from './platform.client';
import { stack, startStopped } from './stack.control';

const BOUNDARY = 'image-api-kill';
/** What each upload declares: a large photo, of which a slice arrives every 200 ms. */
const DECLARED_BYTES = 20 * 1024 * 1024;

/** A conversion upload that keeps sending its file slowly until it is cut off; `answered` is the status it got, if any. */
function slowUpload(url: string, token: string) {
  const req = request(new URL('/convert', url), {
    method: 'POST',
    headers: { 'x-access-token': token, 'content-type': `multipart/form-data; boundary=${BOUNDARY}`, 'content-length': String(DECLARED_BYTES) },
  });
  const upload = { answered: undefined as number | undefined, stop: () => undefined as void };
  req.on('error', () => undefined);
  req.on('response', (res) => (upload.answered = res.statusCode));
  req.write(`--${BOUNDARY}\r\nContent-Disposition: form-data; name="file"; filename="large.jpg"\r\nContent-Type: image/jpeg\r\n\r\n`);
  const slice = Buffer.alloc(256 * 1024, 0xff);
  const timer = setInterval(() => req.write(slice), 200);
  upload.stop = () => {
    clearInterval(timer);
    req.destroy();
  };
  return upload;
}

describe('kill -9 of image-api while large uploads hold every slot of a token', () => {
  afterAll(startStopped);

  it('lets the token convert again within seconds, and never asks it to wait longer than that', async () => {
    const token = await newImageToken();
    const small = await photo(4000);
    const { urls } = await stack.state();
    // One after the other, each given time to take its slot before anything else of the token arrives.
    const uploads = [];
    for (let i = 0; i < 2; i++) {
      uploads.push(slowUpload(urls['image-api'], token));
      await sleep(500);
    }
    expect(uploads.map((upload) => upload.answered), 'the uploads are under way, not answered').toEqual([undefined, undefined]);
    expect((await convert(token, small)).status, "a third request while the uploads hold the token's slots").toBe(429);

    await stack.signal('image-api', 'SIGKILL');
    const killedAt = Date.now();
    for (const upload of uploads) upload.stop();
    await stack.start('image-api');
    const upAt = Date.now();
    const waits: string[] = [];
    const converted = await pollUntil(
      async () => {
        const res = await convert(token, small);
        if (res.status === 429) waits.push(res.headers.get('retry-after')!);
        return res;
      },
      (res) => res.status !== 429,
      { timeoutMs: 60_000, intervalMs: 250, what: 'the token to convert again' },
    );
    console.log(`[image-api-kill] image-api healthy ${((upAt - killedAt) / 1000).toFixed(1)} s after the kill; the token converts again ${((converted.at - killedAt) / 1000).toFixed(1)} s after it (Retry-After meanwhile: ${waits.join(', ') || 'none'})`);

    expect(converted.status, converted.text).toBe(200);
    expect(converted.at - killedAt, 'kill to the token converting again').toBeLessThan(10_000);
    expect(waits.filter((seconds) => !['1', '2'].includes(seconds)), 'Retry-After longer than a held slot can last').toEqual([]);
  });
});
