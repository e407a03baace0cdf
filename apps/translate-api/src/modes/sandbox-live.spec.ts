import type { NestFastifyApplication } from '@nestjs/platform-fastify';
import { ReviewerService } from '@platform/review';
import { loadConfig } from '@platform/service-kit';
import { createTestKey, http, testAppEnv, WEBHOOK_TEST_ENV, type TestKey } from '@platform/testing';
import { WebhookEvents } from '@platform/webhooks';
import { DataSource } from 'typeorm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { TranslateApiConfig } from '../config/translate-api.config';
import { serveTranslateApi } from '../translate-api.app';

const SOFA = 'The cat is sleeping on the red sofa.';
const GLOSSARY = { name: 'furniture', source: 'en', entries: [{ term: 'sofa', translations: { es: 'diván' } }] };
/** Registration checks the host but never calls it. */
const HOOK = 'http://127.0.0.1:9/hooks';

/**
 * Sandbox and live are two worlds of one account: every attack a sandbox key of the account
 * could make on live objects (and the reverse) answers as if the object did not exist.
 */
describe('sandbox and live worlds of one account (HTTP)', () => {
  let app: NestFastifyApplication;
  let url: string;
  const accounts: string[] = [];

  beforeAll(async () => {
    app = await serveTranslateApi(loadConfig(TranslateApiConfig, testAppEnv({ ...WEBHOOK_TEST_ENV, RATE_LIMIT_PER_MINUTE: '1000' })));
    url = await app.getUrl();
  });
  afterAll(async () => {
    await app.close();
    // Workers of other test files share this database: leave them no jobs to translate.
    await app.get(DataSource).query('DELETE FROM translation.batch_jobs WHERE account_id = ANY($1)', [accounts]).catch(() => undefined);
  });

  /** One account with a live and a sandbox key, both with the manage scope. */
  async function account(): Promise<{ live: TestKey; sandbox: TestKey }> {
    const live = await createTestKey({ sandbox: false, scopes: ['translate', 'manage'] });
    const sandbox = await createTestKey({ sandbox: true, scopes: ['translate', 'manage'], accountId: live.accountId });
    accounts.push(live.accountId);
    return { live, sandbox };
  }

  const as = (key: TestKey) => (method: string, path: string, json?: unknown) => http(url, method, `/api/v1${path}`, { token: key.plainKey, json });

  const expectNotFound = (res: { status: number; body: unknown }) => {
    expect(res.status).toBe(404);
    expect(res.body).toMatchObject({ error: 'not_found', message: expect.any(String) });
  };

  it("keeps each mode's glossaries out of the other mode's reach, in every route and as a translation parameter", async () => {
    const { live, sandbox } = await account();
    for (const [owner, other] of [
      [live, sandbox],
      [sandbox, live],
    ]) {
      const created = await as(owner)('POST', '/glossaries', GLOSSARY);
      expect(created.status).toBe(201);
      const id = created.body.glossary.id;

      expectNotFound(await as(other)('GET', `/glossaries/${id}`));
      expectNotFound(await as(other)('GET', `/glossaries/${id}?format=csv`));
      expectNotFound(await as(other)('PUT', `/glossaries/${id}`, { ...GLOSSARY, name: 'taken over' }));
      expectNotFound(await as(other)('DELETE', `/glossaries/${id}`));
      expect((await as(other)('GET', '/glossaries')).body.glossaries.map((g: { id: string }) => g.id)).not.toContain(id);
      for (const path of ['/translate', '/batches']) {
        const used = await as(other)('POST', path, { source: 'en', target: 'es', tier: 'pro', glossary: id, texts: [SOFA] });
        expect(used.status).toBe(422);
        expect(used.body).toEqual({ error: 'unsupported_language', message: `Unknown glossary "${id}"` });
      }

      // Untouched, and still the owner's to use.
      const own = await as(owner)('GET', `/glossaries/${id}`);
      expect(own.body.glossary).toMatchObject({ name: 'furniture', entry_count: 1 });
      const translated = await as(owner)('POST', '/translate', { source: 'en', target: 'es', tier: 'pro', glossary: id, texts: [SOFA] });
      expect(translated.status).toBe(200);
      expect(translated.body.translations[0]).toContain('diván');
    }
  });

  it("answers 404 for the other mode's batch jobs, review-tier jobs included", async () => {
    const { live, sandbox } = await account();
    // A live review-tier job is accepted only where somebody can review it.
    await app.get(ReviewerService).create(['es'], { accountId: live.accountId });
    const liveJob = (await as(live)('POST', '/batches', { source: 'en', target: 'es', texts: [SOFA] })).body.job;
    const liveReview = (await as(live)('POST', '/translate', { source: 'en', target: 'es', tier: 'review', texts: [SOFA] })).body.job;
    const sandboxJob = (await as(sandbox)('POST', '/batches', { source: 'en', target: 'es', texts: [SOFA] })).body.job;
    for (const job of [liveJob, liveReview, sandboxJob]) expect(job).toMatch(/^job_/);

    expectNotFound(await as(sandbox)('GET', `/batches/${liveJob}`));
    expectNotFound(await as(sandbox)('GET', `/batches/${liveReview}`));
    expectNotFound(await as(live)('GET', `/batches/${sandboxJob}`));
    expect((await as(live)('GET', `/batches/${liveJob}`)).status).toBe(200);
    expect((await as(live)('GET', `/batches/${liveReview}`)).body).toMatchObject({ tier: 'review' });
    expect((await as(sandbox)('GET', `/batches/${sandboxJob}`)).status).toBe(200);
  });

  it('gives each mode its own webhook endpoint: a sandbox key can neither see, repoint, rotate nor delete the live one', async () => {
    const { live, sandbox } = await account();
    const registered = await as(live)('PUT', '/webhook', { url: HOOK });
    expect(registered.status).toBe(201);
    const liveSecret = registered.body.webhook.secret;

    expectNotFound(await as(sandbox)('GET', '/webhook'));
    expectNotFound(await as(sandbox)('POST', '/webhook/rotate-secret'));
    expectNotFound(await as(sandbox)('DELETE', '/webhook'));
    // Registering creates the sandbox endpoint, with its own secret; the live one is as it was.
    const own = await as(sandbox)('PUT', '/webhook', { url: 'http://127.0.0.1:10/attacker' });
    expect(own.status).toBe(201);
    expect(own.body.webhook.secret).not.toBe(liveSecret);
    await as(sandbox)('POST', '/webhook/rotate-secret');
    await as(sandbox)('DELETE', '/webhook');

    expect((await as(live)('GET', '/webhook')).body.webhook).toMatchObject({ url: HOOK, disabled: false });
    const [stored] = await app.get(DataSource).query('SELECT url, secret FROM translation.webhook_endpoints WHERE account_id = $1', [live.accountId]);
    expect(stored).toEqual({ url: HOOK, secret: liveSecret });
  });

  it("lists only the mode's deliveries and refuses to redeliver the other mode's", async () => {
    const { live, sandbox } = await account();
    await as(live)('PUT', '/webhook', { url: HOOK });
    await as(sandbox)('PUT', '/webhook', { url: `${HOOK}/sandbox` });
    const dataSource = app.get(DataSource);
    // A recorded attempt per mode, as webhook-dispatcher leaves them.
    const attempt = async (key: TestKey) => {
      const eventId = await dataSource.transaction((manager) =>
        app.get(WebhookEvents).publish(manager, { accountId: key.accountId, sandbox: key.sandbox, type: 'batch.completed', data: { job: 'job_x', status: 'done' } }),
      );
      const [{ id }] = await dataSource.query(
        `INSERT INTO translation.webhook_deliveries (event_id, account_id, series, attempt, url, status_code, duration_ms, final)
         VALUES ($1, $2, $1, 1, $3, 500, 5, true) RETURNING id`,
        [eventId, key.accountId, HOOK],
      );
      return id as string;
    };
    const [liveDelivery, sandboxDelivery] = [await attempt(live), await attempt(sandbox)];

    const listed = (key: TestKey) => as(key)('GET', '/webhook/deliveries').then((res) => res.body.deliveries.map((d: { id: string }) => d.id));
    expect(await listed(sandbox)).toEqual([sandboxDelivery]);
    expect(await listed(live)).toEqual([liveDelivery]);
    expectNotFound(await as(sandbox)('POST', `/webhook/deliveries/${liveDelivery}/redeliver`));
    expectNotFound(await as(live)('POST', `/webhook/deliveries/${sandboxDelivery}/redeliver`));
    const refused = await as(sandbox)('GET', `/webhook/deliveries?before=${liveDelivery}`);
    expect(refused.status).toBe(422);
    expect((await as(live)('POST', `/webhook/deliveries/${liveDelivery}/redeliver`)).status).toBe(202);
  });

  it('lets a sandbox manage key neither list nor change live keys', async () => {
    const { live, sandbox } = await account();
    const listed = await as(sandbox)('GET', '/keys');
    expect(listed.body.keys.map((k: { id: string }) => k.id)).toEqual([sandbox.keyId]);
    expectNotFound(await as(sandbox)('POST', `/keys/${live.keyId}/regenerate`));
    expectNotFound(await as(sandbox)('PATCH', `/keys/${live.keyId}`, { monthly_word_limit: 1 }));
    expectNotFound(await as(sandbox)('DELETE', `/keys/${live.keyId}`));
    expect((await as(sandbox)('POST', '/keys', { sandbox: false })).status).toBe(403);
    expect((await as(live)('GET', '/keys')).status).toBe(200);
  });

  it("counts usage per mode: a sandbox key's account figures leave live words out", async () => {
    const { live, sandbox } = await account();
    expect((await as(live)('POST', '/translate', { source: 'en', target: 'es', texts: [SOFA] })).status).toBe(200);
    const sandboxUsage = (await as(sandbox)('GET', '/usage')).body;
    expect(sandboxUsage).toMatchObject({ words: 0, account: { mode: 'sandbox', words: 0 } });
    expect((await as(live)('GET', '/usage')).body).toMatchObject({ words: 8, account: { mode: 'live', words: 8, limit: null } });
  });
});
