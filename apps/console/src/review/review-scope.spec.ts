import type { NestFastifyApplication } from '@nestjs/platform-fastify';
import { ReviewerService, ReviewTasks } from '@platform/review';
import { insertJobInReview } from '@platform/review/testing';
import { createTestKey } from '@platform/testing';
import { DataSource } from 'typeorm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { accountWithOwner, startConsole, type Browser, type TestAccount } from '../console-browser.testing';

const LANGUAGE = 'et';
const SOURCE = 'Confidential merger plan for {company}.';
const MACHINE = 'Konfidentsiaalne ühinemiskava ettevõttele {company}.';
const ATTACK = 'Rünnak {company}.';

/** Every route of the reviewer workspace that names a task, with what it sends. */
const TASK_ROUTES = (id: string) =>
  [
    ['GET', `/review/tasks/${id}`, undefined],
    ['POST', `/review/tasks/${id}/lease`, undefined],
    ['POST', `/review/tasks/${id}/edit`, { translation: ATTACK }],
    ['POST', `/review/tasks/${id}/approve`, undefined],
  ] as const;

describe("who may review an account's tasks", () => {
  let app: NestFastifyApplication;
  let url: string;
  let victim: TestAccount;
  let attacker: TestAccount;

  const liveJob = async (account: TestAccount, options: { sandbox?: boolean; reviewPool?: boolean } = {}) => {
    const key = await createTestKey({ sandbox: options.sandbox ?? false, accountId: account.accountId });
    return insertJobInReview(app, { key, target: LANGUAGE, source: SOURCE, translation: MACHINE, reviewPool: options.reviewPool });
  };
  const stored = async (jobId: string) => {
    const [row] = await app.get(DataSource).query(
      `SELECT j.status, b.translation, t.status AS task_status, t.verdict_translation FROM translation.batch_jobs j
       JOIN translation.batch_texts b ON b.job_id = j.id JOIN translation.review_tasks t ON t.job_id = j.id WHERE j.id = $1`,
      [jobId],
    );
    return row as { status: string; translation: string; task_status: string; verdict_translation: string | null };
  };
  const taskOf = async (jobId: string) => ((await app.get(DataSource).query(`SELECT id FROM translation.review_tasks WHERE job_id = $1`, [jobId])) as { id: string }[])[0].id;
  const reviewerOf = async (account: TestAccount): Promise<Browser> => (await account.join('reviewer', { languages: [LANGUAGE] })).browser;

  beforeAll(async () => {
    ({ app, url } = await startConsole());
    // The victim lets the platform's reviewers review too: that must not open its jobs to other accounts' reviewers.
    [victim, attacker] = [await accountWithOwner(app, url, { activated: true }), await accountWithOwner(app, url, { activated: true })];
  });
  afterAll(() => app?.close());

  it("gives another account's open task to nobody, and answers 404 for it on every route", async () => {
    const jobId = await liveJob(victim, { reviewPool: true });
    const taskId = await taskOf(jobId);
    const intruder = await reviewerOf(attacker);

    expect((await intruder.call('GET', `/review/tasks/next?lang=${LANGUAGE}`)).body).toEqual({ ok: true, task: null });
    for (const [method, path, body] of TASK_ROUTES(taskId)) {
      expect(await intruder.call(method, path, body), `${method} ${path}`).toMatchObject({ status: 404, body: { error: 'not_found' } });
    }
    expect((await intruder.call('GET', '/review/tasks')).body.tasks).toEqual([]);
    expect(await stored(jobId)).toEqual({ status: 'processing', translation: MACHINE, task_status: 'pending', verdict_translation: null });

    // The victim's own reviewer gets it.
    const own = await reviewerOf(victim);
    expect((await own.call('GET', `/review/tasks/next?lang=${LANGUAGE}`)).body.task).toMatchObject({ id: taskId, job: jobId, source_text: SOURCE });
    await own.call('POST', `/review/tasks/${taskId}/approve`);
  });

  it("cannot change another account's result even while holding a lease, nor read it after it was answered", async () => {
    const jobId = await liveJob(victim);
    const taskId = await taskOf(jobId);
    const own = await reviewerOf(victim);
    expect((await own.call('GET', `/review/tasks/next?lang=${LANGUAGE}`)).body.task.id).toBe(taskId);
    // A reviewer of another account given the claim in the database (as a claim from before accounts were kept apart would be).
    const intruder = await reviewerOf(attacker);
    const [{ reviewer_id: intruderReviewer }] = await app.get(DataSource).query(`SELECT reviewer_id FROM translation.console_users WHERE account_id = $1 AND role = 'reviewer'`, [attacker.accountId]);
    await app.get(DataSource).query(`UPDATE translation.review_tasks SET reviewer_id = $2 WHERE id = $1`, [taskId, intruderReviewer]);

    for (const [method, path, body] of TASK_ROUTES(taskId)) {
      expect(await intruder.call(method, path, body), `${method} ${path}`).toMatchObject({ status: 404, body: { error: 'not_found' } });
    }
    expect((await intruder.call('GET', '/review/tasks')).body.tasks).toEqual([]);
    expect((await intruder.call('GET', `/review/tasks/next?lang=${LANGUAGE}`)).body.task).toBeNull();
    expect(await stored(jobId)).toMatchObject({ status: 'processing', translation: MACHINE, verdict_translation: null });
  });

  it('never hands a sandbox job to people, not even to the account\u2019s own reviewers', async () => {
    const jobId = await liveJob(victim, { sandbox: true });
    const own = await reviewerOf(victim);
    expect((await own.call('GET', `/review/tasks/next?lang=${LANGUAGE}`)).body.task).toBeNull();
    expect(await own.call('POST', `/review/tasks/${await taskOf(jobId)}/approve`)).toMatchObject({ status: 404 });
  });

  it('keeps tasks from the platform\u2019s reviewers unless the job was submitted open to them', async () => {
    const pool = (await app.get(ReviewerService).create([LANGUAGE])).reviewer;
    const closed = await liveJob(attacker);
    const open = await liveJob(attacker, { reviewPool: true });
    // The pool's reviewers work through the public API (its own spec); the rule is the service's.
    const tasks = app.get(ReviewTasks);
    const claimed: string[] = [];
    for (let task = await tasks.claim(pool, LANGUAGE); task; task = await tasks.claim(pool, LANGUAGE)) claimed.push(task.task.jobId);
    expect(claimed).toContain(open);
    expect(claimed).not.toContain(closed);
  });

  describe('the owner chooses where the platform\u2019s reviewers may review', () => {
    let account: TestAccount;

    beforeAll(async () => {
      account = await accountWithOwner(app, url, { activated: true });
    });

    it('shows per language who reviews, and takes the owner\u2019s choice', async () => {
      await account.join('reviewer', { languages: ['mt', 'ga'] });
      await app.get(ReviewerService).create(['mt']);
      const before = await account.owner.call('GET', '/review-pool');
      expect(before.status).toBe(200);
      expect(before.body.pool_languages).toEqual([]);
      expect(before.body.coverage).toHaveLength(24);
      expect(before.body.coverage.find((c: { language: string }) => c.language === 'mt')).toEqual({ language: 'mt', own_reviewers: 1, pool_available: true, pool: false });

      const chosen = await account.owner.call('PUT', '/review-pool', { pool_languages: ['mt', 'de', 'mt'] });
      expect(chosen.status).toBe(200);
      expect(chosen.body.pool_languages).toEqual(['de', 'mt']);
      expect(chosen.body.coverage.find((c: { language: string }) => c.language === 'de')).toMatchObject({ language: 'de', pool: true });
      expect((await account.owner.call('PUT', '/review-pool', { pool_languages: [] })).body.pool_languages).toEqual([]);
    });

    it('refuses other roles and malformed choices', async () => {
      for (const role of ['member', 'reviewer'] as const) {
        const { browser } = await account.join(role, role === 'reviewer' ? { languages: ['de'] } : {});
        expect((await browser.call('GET', '/review-pool')).status).toBe(403);
        expect((await browser.call('PUT', '/review-pool', { pool_languages: ['de'] })).status).toBe(403);
      }
      for (const body of [{}, { pool_languages: 'de' }, { pool_languages: ['xx'] }, { pool_languages: [7] }]) {
        expect(await account.owner.call('PUT', '/review-pool', body), JSON.stringify(body)).toMatchObject({ status: 422, body: { error: 'invalid_request' } });
      }
    });
  });
});
