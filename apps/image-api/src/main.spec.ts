import { buildApp, http, startBuiltApp, testAppEnv } from '@platform/testing';
import { beforeAll, describe, expect, it } from 'vitest';

describe('image-api as a process', () => {
  beforeAll(async () => {
    await buildApp('image-api');
  });

  it('never logs a token from the path, however it was percent-encoded', async () => {
    const proc = startBuiltApp('image-api', testAppEnv({ LOG_LEVEL: 'info' }));
    const url = await proc.listening;
    const secret = 'Zq7'.repeat(13) + 'x';
    for (const path of [`/access-token/img_${secret}`, `/access-token/%69mg_${secret}`, `/access-token/%2569%6dg_${secret}`, `/access-token/x?token=%69mg_${secret}`]) {
      expect((await http(url, 'GET', path)).status).toBeGreaterThanOrEqual(400);
    }
    proc.child.kill('SIGTERM');
    expect(await proc.exit).toEqual({ code: 0, signal: null });

    const requestLines = proc.stdout().split('\n').filter((line) => line.includes('"msg":"request"'));
    expect(requestLines).toHaveLength(4);
    expect(proc.stdout()).not.toContain(secret);
    for (const line of requestLines) expect(JSON.parse(line).url).toMatch(/img_\*\*\*/);
  }, 60_000);
});
