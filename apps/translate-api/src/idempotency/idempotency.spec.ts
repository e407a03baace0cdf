import { Body, Controller, HttpCode, Module, Post } from '@nestjs/common';
import { NestFastifyApplication } from '@nestjs/platform-fastify';
import { AuthModule } from '@platform/auth';
import { DatabaseModule, translationDomain } from '@platform/database';
import { ApiError, translationEnvelope } from '@platform/errors';
import { bootstrapHttpApp, DatabaseRedisConfig, HealthModule, loadConfig, RedisModule } from '@platform/service-kit';
import { createTestKey, http, pollUntil, testAppEnv, testEnv } from '@platform/testing';
import { Redis } from 'ioredis';
import { randomUUID } from 'node:crypto';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { TranslateApiConfig } from '../config/translate-api.config';
import { serveTranslateApi } from '../translate-api.app';
import { IdempotencyModule } from './idempotency.module';
import { Idempotent } from './idempotent.decorator';

const start = (env: Record<string, string> = {}) => serveTranslateApi(loadConfig(TranslateApiConfig, testAppEnv(env)));
const glossary = (name: string) => ({ name, source: 'en', entries: [{ term: 'cloud', translations: { de: 'Wolke' } }] });

describe('Idempotency-Key on POST /api/v1/glossaries', () => {
  let app: NestFastifyApplication;
  let url: string;
  let redis: Redis;

  beforeAll(async () => {
    app = await start();
    url = await app.getUrl();
    redis = new Redis(testEnv.redisUrl);
  });
  afterAll(async () => {
    redis.disconnect();
    await app.close();
  });

  async function client(options: { accountId?: string } = {}) {
    const key = await createTestKey({ rateLimitPerMinute: 10_000, ...options });
    const post = (json: unknown, idempotencyKey?: string, base = url) =>
      http(base, 'POST', '/api/v1/glossaries', { token: key.plainKey, json, headers: idempotencyKey === undefined ? {} : { 'idempotency-key': idempotencyKey } });
    const count = async () => (await http(url, 'GET', '/api/v1/glossaries', { token: key.plainKey })).body.glossaries.length;
    return { ...key, post, count };
  }

  it('answers a repeat with the first response, marked as replayed, and creates nothing more', async () => {
    const { post, count } = await client();
    const idempotencyKey = randomUUID();
    const first = await post(glossary('once'), idempotencyKey);
    expect(first.status).toBe(201);
    expect(first.headers.get('idempotent-replayed')).toBeNull();

    const again = await post(glossary('once'), idempotencyKey);
    expect(again.status).toBe(201);
    expect(again.text).toBe(first.text);
    expect(again.headers.get('idempotent-replayed')).toBe('true');
    expect(await count()).toBe(1);

    // The same request under a new key is a new request.
    expect((await post(glossary('once'), randomUUID())).body.glossary.id).not.toBe(first.body.glossary.id);
    expect(await count()).toBe(2);
  });

  it('treats the same JSON with other key order or spacing as the same body', async () => {
    const { post, plainKey } = await client();
    const idempotencyKey = randomUUID();
    const first = await post(glossary('order'), idempotencyKey);
    const reordered = await http(url, 'POST', '/api/v1/glossaries', {
      token: plainKey,
      headers: { 'content-type': 'application/json', 'idempotency-key': idempotencyKey },
      body: '{ "entries": [{"translations": {"de": "Wolke"}, "term": "cloud"}], "source": "en", "name": "order" }',
    });
    expect(reordered.headers.get('idempotent-replayed')).toBe('true');
    expect(reordered.body).toEqual(first.body);
  });

  it('refuses the same key with a different body with 422 idempotency_key_reused', async () => {
    const { post, count } = await client();
    const idempotencyKey = randomUUID();
    await post(glossary('first'), idempotencyKey);
    const reused = await post(glossary('second'), idempotencyKey);
    expect(reused.status).toBe(422);
    expect(reused.body).toEqual({ error: 'idempotency_key_reused', message: expect.stringContaining('different request') });
    expect(await count()).toBe(1);
  });

  it('scopes keys to the API key: another key of the same account may use the same value', async () => {
    const first = await client();
    const second = await client({ accountId: first.accountId });
    const idempotencyKey = randomUUID();
    expect((await first.post(glossary('a'), idempotencyKey)).status).toBe(201);
    const other = await second.post(glossary('a'), idempotencyKey);
    expect(other.status).toBe(201);
    expect(other.headers.get('idempotent-replayed')).toBeNull();
    expect(await first.count()).toBe(2);
  });

  it('replays a refusal too: a 4xx other than 429 is the outcome of the request', async () => {
    const { post } = await client();
    const idempotencyKey = randomUUID();
    const invalid = { ...glossary('bad'), source: 'xx' };
    const first = await post(invalid, idempotencyKey);
    expect(first.status).toBe(422);
    const again = await post(invalid, idempotencyKey);
    expect(again.status).toBe(422);
    expect(again.body).toEqual(first.body);
    expect(again.headers.get('idempotent-replayed')).toBe('true');
  });

  it('creates exactly one glossary from 10 identical concurrent requests on two replicas', async () => {
    const replica = await start();
    try {
      const { post, count } = await client();
      const idempotencyKey = randomUUID();
      const urls = [url, await replica.getUrl()];
      const results = await Promise.all(Array.from({ length: 10 }, (_, i) => post(glossary('concurrent'), idempotencyKey, urls[i % 2])));

      const created = results.filter((r) => r.status === 201);
      const originals = created.filter((r) => r.headers.get('idempotent-replayed') === null);
      expect(originals).toHaveLength(1);
      for (const replayed of created) expect(replayed.body).toEqual(originals[0].body);
      for (const busy of results.filter((r) => r.status !== 201)) {
        expect(busy.status).toBe(409);
        expect(busy.body).toEqual({ error: 'idempotency_in_progress', message: expect.any(String) });
        expect(busy.headers.get('retry-after')).toBe('1');
      }
      expect(await count()).toBe(1);
    } finally {
      await replica.close();
    }
  });

  it('keeps the response for IDEMPOTENCY_TTL_SECONDS (24 h by default)', async () => {
    const { post, keyId } = await client();
    await post(glossary('kept'), randomUUID());
    const [record] = await redis.keys(`idempotency:${keyId}:*`);
    const ttl = await redis.ttl(record);
    expect(ttl).toBeGreaterThan(86_400 - 60);
    expect(ttl).toBeLessThanOrEqual(86_400);
  });

  it.each([
    ['empty', ''],
    ['longer than 255 characters', 'k'.repeat(256)],
    ['not ASCII', 'schlüssel'],
  ])('refuses an Idempotency-Key that is %s with 422', async (_, idempotencyKey) => {
    const { post, count } = await client();
    const res = await post(glossary('header'), idempotencyKey);
    expect(res.status).toBe(422);
    expect(res.body).toEqual({ error: 'unsupported_language', message: 'Idempotency-Key must be 1 to 255 printable ASCII characters, sent once' });
    expect(await count()).toBe(0);
  });

  it('answers 503 when Redis is unreachable and a key is sent, and runs nothing', async () => {
    const down = await start({ REDIS_URL: 'redis://127.0.0.1:1' });
    try {
      const { post, count } = await client();
      const downUrl = await down.getUrl();
      const refused = await post(glossary('no redis'), randomUUID(), downUrl);
      expect(refused.status).toBe(503);
      expect(refused.body).toEqual({ error: 'service_unavailable', message: expect.stringContaining('the idempotency store (Redis) is unreachable') });
      expect(await count()).toBe(0);
      // Without the header the request does not depend on Redis.
      expect((await post(glossary('no redis'), undefined, downUrl)).status).toBe(201);
    } finally {
      await down.close();
    }
  });
});

/**
 * Outcomes a glossary upload cannot be made to produce on demand (a server error, a request that
 * is still running), through a route of this test only that uses the same interceptor.
 */
const probe = { runs: new Map<string, number>(), gates: new Map<string, () => void>() };

@Controller('probe')
class ProbeController {
  @Post()
  @HttpCode(202)
  @Idempotent()
  async run(@Body() body: { tag: string; failFirst?: number; wait?: boolean }): Promise<{ runs: number }> {
    const runs = (probe.runs.get(body.tag) ?? 0) + 1;
    probe.runs.set(body.tag, runs);
    if (body.wait) await new Promise<void>((resolve) => probe.gates.set(body.tag, resolve));
    if (runs === 1 && body.failFirst) throw new ApiError(body.failFirst, 'probe_failure', `failed with ${body.failFirst}`);
    return { runs };
  }
}

const config = loadConfig(DatabaseRedisConfig, testAppEnv({ DATABASE_POOL_SIZE: '2' }));

@Module({
  imports: [
    HealthModule,
    RedisModule.forRoot(config.REDIS_URL, config.REDIS_COMMAND_TIMEOUT_MS),
    DatabaseModule.forRoot(config, translationDomain),
    AuthModule.forRoot({ maxKeysPerAccount: 25 }),
    IdempotencyModule.forRoot({ ttlSeconds: 60 }),
  ],
  controllers: [ProbeController],
})
class ProbeModule {}

describe('Idempotency-Key outcomes', () => {
  let app: NestFastifyApplication;
  let token: string;

  beforeAll(async () => {
    app = await bootstrapHttpApp({ service: 'translate-api', module: ProbeModule, config: loadConfig(TranslateApiConfig, testAppEnv()), envelope: translationEnvelope });
    token = (await createTestKey()).plainKey;
  });
  afterAll(() => app.close());

  const call = async (body: object, idempotencyKey: string) =>
    http(await app.getUrl(), 'POST', '/probe', { token, json: body, headers: { 'idempotency-key': idempotencyKey } });

  it('keeps the status the route answers with', async () => {
    const idempotencyKey = randomUUID();
    expect((await call({ tag: randomUUID() }, idempotencyKey)).status).toBe(202);
    expect((await call({ tag: 'other' }, idempotencyKey)).status).toBe(422);
  });

  it.each([500, 503, 429])('does not keep a %i: the retry runs, and its success is kept', async (status) => {
    const tag = randomUUID();
    const idempotencyKey = randomUUID();
    expect((await call({ tag, failFirst: status }, idempotencyKey)).status).toBe(status);
    const retry = await call({ tag, failFirst: status }, idempotencyKey);
    expect(retry.status).toBe(202);
    expect(retry.body).toEqual({ runs: 2 });
    const replay = await call({ tag, failFirst: status }, idempotencyKey);
    expect(replay.body).toEqual({ runs: 2 });
    expect(replay.headers.get('idempotent-replayed')).toBe('true');
    expect(probe.runs.get(tag)).toBe(2);
  });

  it('answers 409 while the first request runs, then replays its response', async () => {
    const tag = randomUUID();
    const idempotencyKey = randomUUID();
    const first = call({ tag, wait: true }, idempotencyKey);
    await pollUntil(() => probe.gates.has(tag), Boolean, { what: 'the first request to start' });

    const busy = await call({ tag, wait: true }, idempotencyKey);
    expect(busy.status).toBe(409);
    expect(busy.body).toEqual({ error: 'idempotency_in_progress', message: expect.stringContaining('still being processed') });
    expect(busy.headers.get('retry-after')).toBe('1');
    expect((await call({ tag: 'different' }, idempotencyKey)).body.error).toBe('idempotency_key_reused');

    probe.gates.get(tag)!();
    expect((await first).body).toEqual({ runs: 1 });
    const replay = await call({ tag, wait: true }, idempotencyKey);
    expect(replay.status).toBe(202);
    expect(replay.body).toEqual({ runs: 1 });
    expect(probe.runs.get(tag)).toBe(1);
  });
});
