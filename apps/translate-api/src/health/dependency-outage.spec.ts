import { NestFastifyApplication } from '@nestjs/platform-fastify';
import { runMigrations, translationDomain } from '@platform/database';
import { loadConfig } from '@platform/service-kit';
import { createTestKey, expectEventually, http, type OwnDependency, startOwnPostgres, startOwnRedis, testAppEnv, type TestKey } from '@platform/testing';
import { randomUUID } from 'node:crypto';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { TranslateApiConfig } from '../config/translate-api.config';
import { serveTranslateApi } from '../translate-api.app';

/** The deadlines of the app below: a dependency that hangs costs a request about this much. */
const DEADLINES = { DATABASE_STATEMENT_TIMEOUT_MS: '1000', DATABASE_QUERY_TIMEOUT_MS: '1500', REDIS_COMMAND_TIMEOUT_MS: '500' };

async function timed<T>(work: Promise<T>): Promise<T & { ms: number }> {
  const started = Date.now();
  return { ...(await work), ms: Date.now() - started };
}

/** translate-api on a Postgres and a Redis of the test's own, which it stops, freezes and starts again. */
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
      loadConfig(TranslateApiConfig, testAppEnv({ DATABASE_URL: postgres.url, REDIS_URL: redis.url, UNAVAILABLE_RETRY_AFTER_SECONDS: '7', ...DEADLINES })),
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

  /** /health answers 503 within its checks' 2 s, naming the hung dependency and no other. */
  const expectHealthNaming = async (hung: 'postgres' | 'redis') => {
    const health = await timed(http(url, 'GET', '/health'));
    const state = (dependency: string) => (dependency === hung ? 'down' : 'up');
    expect([health.status, health.body.checks.postgres.status, health.body.checks.redis.status]).toEqual([503, state('postgres'), state('redis')]);
    expect(health.ms).toBeLessThan(3000);
  };
  const translate = (texts = ['The cat sleeps.']) => http(url, 'POST', '/api/v1/translate', { token: key.plainKey, json: { source: 'en', target: 'es', texts } });

  it('answers 503 with Retry-After within its deadlines while Postgres hangs, and 200 once it goes on', async () => {
    expect((await translate()).status).toBe(200);

    postgres.freeze();
    try {
      // A request on a pooled connection meets the query deadline; one that needs a new
      // connection, the connect timeout (5 s).
      const answers = await Promise.all([
        timed(translate()),
        timed(http(url, 'POST', '/api/v1/batches', { token: key.plainKey, json: { source: 'en', target: 'es', texts: ['One.', 'Two.'] } })),
        timed(http(url, 'GET', '/api/v1/usage', { token: key.plainKey })),
      ]);
      for (const res of answers) {
        expectUnavailable(res, DATABASE);
        expect(res.ms).toBeLessThan(7000);
      }
      await expectHealthNaming('postgres');
    } finally {
      postgres.thaw();
    }

    await expectEventually(async () => expect((await translate()).status).toBe(200), { timeoutMs: 20_000 });
  });

  it('lets translations through and answers 503 where Redis is required within its deadline while Redis hangs', async () => {
    const post = () => http(url, 'POST', '/api/v1/glossaries', { token: key.plainKey, json: glossary, headers: { 'idempotency-key': randomUUID() } });
    expect((await post()).status).toBe(201);

    redis.freeze();
    try {
      // The per-key rate limit gives up on Redis after REDIS_COMMAND_TIMEOUT_MS and lets it through.
      const translated = await timed(translate());
      expect(translated.status).toBe(200);
      expect(translated.ms).toBeLessThan(3000);
      const refused = await timed(post());
      expectUnavailable(refused, /Redis/);
      expect(refused.ms).toBeLessThan(3000);
      await expectHealthNaming('redis');
    } finally {
      redis.thaw();
    }

    await expectEventually(async () => expect((await post()).status).toBe(201), { timeoutMs: 20_000 });
  });
});
