import type { NestFastifyApplication } from '@nestjs/platform-fastify';
import { ReviewerService, ReviewRouting } from '@platform/review';
import { insertJobInReview } from '@platform/review/testing';
import { loadConfig } from '@platform/service-kit';
import { createTestKey, http, testAppEnv } from '@platform/testing';
import { DataSource } from 'typeorm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { TranslateApiConfig } from '../config/translate-api.config';
import { serveTranslateApi } from '../translate-api.app';

/** The reviewer routes' gatekeeping; the whole review flow with batch-worker is in its review-processing spec. */
describe('review routes', () => {
  let app: NestFastifyApplication;
  let url: string;

  const next = (token: string | undefined, lang = 'ga') => http(url, 'GET', `/api/v1/review/tasks/next?lang=${lang}`, { token });

  beforeAll(async () => {
    app = await serveTranslateApi(loadConfig(TranslateApiConfig, testAppEnv()));
    url = await app.getUrl();
  });
  afterAll(() => app?.close());

  it('answers a reviewer with task null when no task in the language is open', async () => {
    const { token } = await app.get(ReviewerService).create(['ga']);
    expect(await next(token)).toMatchObject({ status: 200, body: { ok: true, task: null } });
  });

  it('refuses API keys, malformed and revoked reviewer tokens with 401 invalid_key', async () => {
    const key = await createTestKey();
    const { reviewer, token } = await app.get(ReviewerService).create(['ga']);
    await app.get(DataSource).query('UPDATE translation.reviewers SET revoked_at = now() WHERE id = $1', [reviewer.id]);
    for (const candidate of [key.plainKey, 'rvw_short', token, undefined]) {
      const res = await next(candidate);
      expect(res.status).toBe(401);
      expect(res.body).toEqual({ error: 'invalid_key', message: 'Send a reviewer token: Authorization: Bearer rvw_...' });
    }
  });

  it('refuses a language the reviewer does not review with 403 and a malformed one with 422', async () => {
    const { token } = await app.get(ReviewerService).create(['ga', 'mt']);
    expect(await next(token, 'de')).toMatchObject({ status: 403, body: { error: 'forbidden', message: 'You review ga, mt, not de' } });
    expect(await next(token, 'DE')).toMatchObject({ status: 422, body: { error: 'unsupported_language', message: expect.stringContaining('lang must be an ISO 639-1 code') } });
    expect(await http(url, 'GET', '/api/v1/review/tasks/next', { token })).toMatchObject({ status: 422 });
  });

  it('documents the review routes and the 202 of tier review in the OpenAPI document', async () => {
    const { body } = await http(url, 'GET', '/openapi.json');
    expect(Object.keys(body.paths['/api/v1/review/tasks/next'].get.responses)).toEqual(expect.arrayContaining(['200', '401', '403']));
    expect(Object.keys(body.paths['/api/v1/review/tasks/{id}'].post.responses)).toEqual(expect.arrayContaining(['200', '404', '409', '422']));
    expect(body.paths['/api/v1/translate'].post.responses).toHaveProperty('202');
  });
});

/** Who may review what: accounts' own reviewers, the platform's pool where an account opts in, across every public review route. */
describe('review routes keep accounts apart', () => {
  /** No other file reviews Croatian through the pool, so the pool's open tasks of it are this file's. */
  const LANGUAGE = 'hr';
  let app: NestFastifyApplication;
  let url: string;

  const next = (token: string) => http(url, 'GET', `/api/v1/review/tasks/next?lang=${LANGUAGE}`, { token });
  const answer = (token: string, id: string, json: unknown) => http(url, 'POST', `/api/v1/review/tasks/${id}`, { token, json });
  const job = (key: { accountId: string; keyId: string; sandbox: boolean }, reviewPool = false) =>
    insertJobInReview(app, { key, target: LANGUAGE, source: 'Victim confidential merger plan.', translation: 'Povjerljivi plan spajanja.', reviewPool });
  const result = async (jobId: string) =>
    (await app.get(DataSource).query(`SELECT b.translation, t.status FROM translation.batch_texts b JOIN translation.review_tasks t ON t.job_id = b.job_id WHERE b.job_id = $1`, [jobId]))[0];

  beforeAll(async () => {
    app = await serveTranslateApi(loadConfig(TranslateApiConfig, testAppEnv()));
    url = await app.getUrl();
  });
  afterAll(() => app?.close());

  it("gives an account's reviewer that account's live tasks only, and 404 for another's on answering", async () => {
    const [victim, attacker] = [await createTestKey({ sandbox: false }), await createTestKey({ sandbox: false })];
    const victimJob = await job(victim, true);
    await job({ ...victim, sandbox: true }, true);
    const intruder = (await app.get(ReviewerService).create([LANGUAGE], { accountId: attacker.accountId })).token;
    expect((await next(intruder)).body).toEqual({ ok: true, task: null });
    const [{ id: victimTask }] = await app.get(DataSource).query(`SELECT id FROM translation.review_tasks WHERE job_id = $1`, [victimJob]);
    for (const verdict of [{ verdict: 'approve' }, { verdict: 'edit', translation: 'Napad.' }]) {
      expect(await answer(intruder, victimTask, verdict)).toMatchObject({ status: 404, body: { error: 'not_found' } });
    }
    expect(await result(victimJob)).toEqual({ translation: 'Povjerljivi plan spajanja.', status: 'pending' });

    const own = (await app.get(ReviewerService).create([LANGUAGE], { accountId: victim.accountId })).token;
    expect((await next(own)).body.task).toMatchObject({ id: victimTask, job: victimJob });
    expect((await next(own)).body.task).toBeNull();
    expect((await answer(own, victimTask, { verdict: 'edit', translation: 'Povjerljivi plan.' })).status).toBe(200);
  });

  it("gives the platform's reviewers only the jobs submitted open to them", async () => {
    const key = await createTestKey({ sandbox: false });
    const closed = await job(key);
    const open = await job(key, true);
    const pool = (await app.get(ReviewerService).create([LANGUAGE])).token;
    const claimed: string[] = [];
    for (let res = await next(pool); res.body.task; res = await next(pool)) {
      claimed.push(res.body.task.job);
      expect((await answer(pool, res.body.task.id, { verdict: 'approve' })).status).toBe(200);
    }
    expect(claimed).toContain(open);
    expect(claimed).not.toContain(closed);
    const [{ id: closedTask }] = await app.get(DataSource).query(`SELECT id FROM translation.review_tasks WHERE job_id = $1`, [closed]);
    expect(await answer(pool, closedTask, { verdict: 'approve' })).toMatchObject({ status: 404 });
  });

  it('refuses a live review-tier job nobody could review, records the choice on the job and says who reviews it', async () => {
    // Italian, which the engine reaches from English; the platform's reviewers of it are this test's own.
    const key = await createTestKey({ sandbox: false });
    const submit = () => http(url, 'POST', '/api/v1/batches', { token: key.plainKey, json: { source: 'en', target: 'it', tier: 'review', texts: ['Good morning.'] } });
    const routing = app.get(ReviewRouting);
    await app.get(DataSource).query(`UPDATE translation.reviewers SET revoked_at = now() WHERE account_id IS NULL AND 'it' = ANY(languages)`);

    const nobody = await submit();
    expect(nobody).toMatchObject({ status: 422, body: { error: 'unsupported_language' } });
    expect(nobody.body.message).toBe('tier review: this account has no reviewer of it; the platform has none either; invite one in the console');
    await routing.setPoolLanguages(key.accountId, ['it']);
    expect((await submit()).body.message).toContain("the platform's reviewers, whom it lets review it, have none of it at the moment");

    const pool = await app.get(ReviewerService).create(['it']);
    const accepted = await submit();
    expect(accepted.status).toBe(202);
    expect((await http(url, 'GET', `/api/v1/batches/${accepted.body.job}`, { token: key.plainKey })).body.reviewed_by).toBe('account_and_platform');
    await routing.setPoolLanguages(key.accountId, []);
    expect((await submit()).body.message).toContain("invite one in the console, or let the platform's reviewers review it");
    await app.get(ReviewerService).revoke(pool.reviewer.id);

    const own = await app.get(ReviewerService).create(['it'], { accountId: key.accountId });
    const ownOnly = await submit();
    expect(ownOnly.status).toBe(202);
    const listed = (await http(url, 'GET', '/api/v1/batches', { token: key.plainKey })).body.batches;
    expect(listed.find((b: { id: string }) => b.id === ownOnly.body.job).reviewed_by).toBe('account');
    await app.get(ReviewerService).revoke(own.reviewer.id);

    const sandbox = await createTestKey({ accountId: key.accountId });
    const simulated = await http(url, 'POST', '/api/v1/translate', { token: sandbox.plainKey, json: { source: 'en', target: 'it', tier: 'review', texts: ['Good morning.'] } });
    expect(simulated.status).toBe(202);
    expect((await http(url, 'GET', `/api/v1/batches/${simulated.body.job}`, { token: sandbox.plainKey })).body.reviewed_by).toBe('simulated');
    expect((await http(url, 'POST', '/api/v1/translate', { token: key.plainKey, json: { source: 'en', target: 'it', tier: 'review', texts: ['Hi.'] } })).status).toBe(422);
  });
});

