import { NestFastifyApplication } from '@nestjs/platform-fastify';
import { runMigrations, translationDomain } from '@platform/database';
import { loadConfig } from '@platform/service-kit';
import { createTestKey, expectEventually, http, type OwnDependency, startOwnPostgres, startOwnRedis, testAppEnv, type TestKey } from '@platform/testing';
import { randomUUID } from 'node:crypto';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { TranslateApiConfig } from '../config/translate-api.config';
import { serveTranslateApi } from '../translate-api.app';

/** translate-api on a Postgres and a Redis of the test's own, which it stops and starts again. */
describe('translate-api while a dependency is down', () => {
  let postgres: OwnDependency;
  let redis: OwnDependency;
  let app: NestFastifyApplication;
  let url: string;
  let key: TestKey;

  beforeAll(async () => {
    [postgres, redis] = await Promise.all([startOwnPostgres(), startOwnRedis()]);
    await runMigrations(postgres.url, translationDomain);
    key = await createTestKey({ databaseUrl: postgres.url, rateLimitPerMinute: 10_000 });
    app = await serveTranslateApi(
      loadConfig(TranslateApiConfig, testAppEnv({ DATABASE_URL: postgres.url, REDIS_URL: redis.url, UNAVAILABLE_RETRY_AFTER_SECONDS: '7' })),
    );
    url = await app.getUrl();
  }, 120_000);
  afterAll(async () => {
    await app?.close();
    await Promise.all([postgres?.destroy(), redis?.destroy()]);
  });

  const expectUnavailable = (res: Awaited<ReturnType<typeof http>>, dependency: RegExp) => {
    expect(res.status).toBe(503);
    expect(res.body).toEqual({ error: 'service_unavailable', message: expect.stringMatching(dependency) });
    expect(res.headers.get('retry-after')).toBe('7');
  };
  // A refused connection does not say who refused it; a dropped one (57P01) does.
  const DATABASE = /^Service temporarily unavailable: (the database|a backing service) cannot be reached/;
  const glossary = { name: 'outage', source: 'en', entries: [{ term: 'cloud', translations: { de: 'Wolke' } }] };

  it('answers 503 with Retry-After while Postgres is stopped, and 200 again once it is back, without a restart', async () => {
    expect((await http(url, 'GET', '/api/v1/usage', { token: key.plainKey })).status).toBe(200);

    await postgres.stop();
    try {
      // Authentication, reads and writes all need the database.
      expectUnavailable(await http(url, 'GET', '/api/v1/usage', { token: key.plainKey }), DATABASE);
      expectUnavailable(await http(url, 'GET', '/api/v1/keys', { token: key.plainKey }), DATABASE);
      expectUnavailable(await http(url, 'POST', '/api/v1/glossaries', { token: key.plainKey, json: glossary }), DATABASE);
      const health = await http(url, 'GET', '/health');
      expect([health.status, health.body.checks.postgres.status]).toEqual([503, 'down']);
    } finally {
      await postgres.start();
    }

    await expectEventually(async () => expect((await http(url, 'GET', '/api/v1/usage', { token: key.plainKey })).status).toBe(200), { timeoutMs: 20_000 });
  });

  it('answers 503 with Retry-After where Redis is required while it is stopped, and recovers when it returns', async () => {
    const post = () => http(url, 'POST', '/api/v1/glossaries', { token: key.plainKey, json: glossary, headers: { 'idempotency-key': randomUUID() } });
    expect((await post()).status).toBe(201);

    await redis.stop();
    try {
      expectUnavailable(await post(), /Redis/);
      // Routes that need no Redis keep working (the per-key rate limit fails open).
      expect((await http(url, 'GET', '/api/v1/usage', { token: key.plainKey })).status).toBe(200);
    } finally {
      await redis.start();
    }

    await expectEventually(async () => expect((await post()).status).toBe(201), { timeoutMs: 20_000 });
  });
});
