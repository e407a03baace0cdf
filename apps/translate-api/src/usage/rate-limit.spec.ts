import { NestFastifyApplication } from '@nestjs/platform-fastify';
import { loadConfig } from '@platform/service-kit';
import { createTestKey, http, testAppEnv } from '@platform/testing';
import { randomUUID } from 'node:crypto';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { TranslateApiConfig } from '../config/translate-api.config';
import { serveTranslateApi } from '../translate-api.app';

/** Rate limiting of authenticated requests, seen through the usage endpoint and its neighbours. */
describe('per-key rate limit over HTTP', () => {
  const replicas: NestFastifyApplication[] = [];
  const urls: string[] = [];

  beforeAll(async () => {
    // Two instances of the service sharing one Redis and one database, like two replicas.
    for (let i = 0; i < 2; i++) {
      const app = await serveTranslateApi(loadConfig(TranslateApiConfig, testAppEnv()));
      replicas.push(app);
      urls.push(await app.getUrl());
    }
  });
  afterAll(() => Promise.all(replicas.map((app) => app.close())));

  const usage = (replica: number, token: string) => http(urls[replica], 'GET', '/api/v1/usage', { token });

  it('lets 60 requests a minute through across replicas and refuses the 61st', async () => {
    const key = await createTestKey();
    const responses = await Promise.all(Array.from({ length: 61 }, (_, i) => usage(i % 2, key.plainKey)));

    const refused = responses.filter((r) => r.status === 429);
    expect(responses.filter((r) => r.status === 200)).toHaveLength(60);
    expect(refused).toHaveLength(1);
    const [limited] = refused;
    expect(limited.body).toEqual({ error: 'rate_limited', message: expect.stringContaining('60 requests per minute') });
    expect(Number(limited.headers.get('retry-after'))).toBeGreaterThanOrEqual(1);
    expect(limited.headers.get('retry-after')).toMatch(/^\d+$/);
    expect(limited.headers.get('ratelimit')).toMatch(/^"default";r=0;t=\d+$/);

    const remaining = responses.filter((r) => r.status === 200).map((r) => Number(/r=(\d+)/.exec(r.headers.get('ratelimit')!)![1]));
    expect(remaining.sort((a, b) => a - b)).toEqual(Array.from({ length: 60 }, (_, i) => i));

    // Another key of another account is not affected, on either replica.
    const other = await createTestKey();
    for (const replica of [0, 1]) expect((await usage(replica, other.plainKey)).status).toBe(200);
  });

  it('sends the IETF rate-limit fields on authenticated responses', async () => {
    const key = await createTestKey();
    const res = await usage(0, key.plainKey);
    expect(res.headers.get('ratelimit-policy')).toBe('"default";q=60;w=60');
    const [, remaining, reset] = /^"default";r=(\d+);t=(\d+)$/.exec(res.headers.get('ratelimit') ?? '')!;
    expect(Number(remaining)).toBe(59);
    expect(Number(reset)).toBeGreaterThanOrEqual(1);
    expect(Number(reset)).toBeLessThanOrEqual(60);
  });

  it("applies a key's own limit to all endpoints together, error responses included", async () => {
    const key = await createTestKey({ scopes: ['translate', 'manage'], rateLimitPerMinute: 3 });
    const missing = await http(urls[1], 'DELETE', `/api/v1/keys/${randomUUID()}`, { token: key.plainKey });
    expect(missing.status).toBe(404);
    expect(missing.headers.get('ratelimit-policy')).toBe('"default";q=3;w=60');
    expect(missing.headers.get('ratelimit')).toMatch(/^"default";r=2;t=\d+$/);

    expect((await usage(0, key.plainKey)).status).toBe(200);
    expect((await http(urls[0], 'GET', '/api/v1/keys', { token: key.plainKey })).status).toBe(200);
    const refused = await usage(1, key.plainKey);
    expect(refused.status).toBe(429);
    expect(refused.headers.get('ratelimit-policy')).toBe('"default";q=3;w=60');
  });

  it('counts requests the auth guard refuses for a missing scope, and marks them too', async () => {
    const key = await createTestKey({ rateLimitPerMinute: 2 });
    const forbidden = await http(urls[0], 'GET', '/api/v1/keys', { token: key.plainKey });
    expect(forbidden.status).toBe(403);
    expect(forbidden.headers.get('ratelimit')).toMatch(/^"default";r=1;t=\d+$/);
    expect((await usage(1, key.plainKey)).headers.get('ratelimit')).toMatch(/^"default";r=0;t=\d+$/);
    expect((await usage(0, key.plainKey)).status).toBe(429);
  });

  it('does not limit or mark unauthenticated requests', async () => {
    const res = await http(urls[0], 'GET', '/health');
    expect(res.status).toBe(200);
    expect(res.headers.get('ratelimit')).toBeNull();
    expect((await http(urls[0], 'GET', '/api/v1/usage')).headers.get('ratelimit-policy')).toBeNull();
  });

  it('lets requests through without rate-limit fields while Redis is unreachable', async () => {
    const app = await serveTranslateApi(loadConfig(TranslateApiConfig, testAppEnv({ REDIS_URL: 'redis://127.0.0.1:1' })));
    try {
      const key = await createTestKey({ rateLimitPerMinute: 1 });
      for (let i = 0; i < 3; i++) {
        const res = await http(await app.getUrl(), 'GET', '/api/v1/usage', { token: key.plainKey });
        expect(res.status).toBe(200);
        expect(res.headers.get('ratelimit')).toBeNull();
        expect(res.headers.get('ratelimit-policy')).toBeNull();
      }
    } finally {
      await app.close();
    }
  });

  it('refuses an invalid default rate limit at start, naming the variable', () => {
    expect(() => loadConfig(TranslateApiConfig, testAppEnv({ RATE_LIMIT_PER_MINUTE: '0' }))).toThrow(/RATE_LIMIT_PER_MINUTE/);
    expect(() => loadConfig(TranslateApiConfig, testAppEnv({ SANDBOX_MONTHLY_WORDS: 'lots' }))).toThrow(/SANDBOX_MONTHLY_WORDS/);
  });
});
