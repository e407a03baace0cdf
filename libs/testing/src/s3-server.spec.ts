import { describe, expect, it } from 'vitest';
import { startS3Server } from './s3-server';

describe('startS3Server', () => {
  it('serves S3 on a free port until stopped', async () => {
    const s3 = await startS3Server();
    try {
      expect(s3.endpoint).toMatch(/^http:\/\/127\.0\.0\.1:\d+$/);
      // s3rver accepts unsigned requests, which keeps this check free of an S3 client.
      expect((await fetch(`${s3.endpoint}/probe`, { method: 'PUT' })).status).toBe(200);
      expect((await fetch(`${s3.endpoint}/probe/hello.txt`, { method: 'PUT', body: 'hello' })).status).toBe(200);
      expect(await (await fetch(`${s3.endpoint}/probe/hello.txt`)).text()).toBe('hello');
    } finally {
      await s3.stop();
    }
    await expect(fetch(`${s3.endpoint}/probe/hello.txt`)).rejects.toThrow();
  });
});
