import type { NestFastifyApplication } from '@nestjs/platform-fastify';
import type { ReviewTaskStatus } from '@platform/review';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { accountWithOwner, Browser, sql, startConsole, type TestAccount } from '../console-browser.testing';
import { insertJob, keyOf } from '../customer-area.testing';

describe('console review progress over HTTP', () => {
  let app: NestFastifyApplication;
  let url: string;
  let account: TestAccount;

  beforeAll(async () => {
    ({ app, url } = await startConsole());
    account = await accountWithOwner(app, url, { activated: true });
  });
  afterAll(() => app?.close());

  /** Sampled tasks of a job in the given states, as review leaves them (a claimed one with a lease that holds). */
  async function tasks(jobId: string, states: ReviewTaskStatus[]) {
    for (const [idx, status] of states.entries()) {
      await sql(
        `INSERT INTO translation.review_tasks (job_id, idx, target, source_text, machine_translation, status, lease_until)
         VALUES ($1, $2, 'es', 'a b', 'c d', $3, CASE WHEN $3 = 'claimed' THEN now() + interval '1 minute' END)`,
        [jobId, idx, status],
      );
    }
  }

  it("counts each review-tier job's tasks by state, newest job first, in its mode only", async () => {
    const live = await keyOf(app, account, { sandbox: false });
    const older = await insertJob(app, live, { texts: ['a b', 'c d', 'e f', 'g h'], tier: 'review', status: 'processing' });
    await tasks(older, ['pending', 'claimed', 'approved', 'edited']);
    const newer = await insertJob(app, live, { texts: ['a b'], tier: 'review', status: 'processing' });
    await insertJob(app, live, { texts: ['a b'], tier: 'pro' });
    await insertJob(app, await keyOf(app, account), { texts: ['a b'], tier: 'review' });

    const res = await account.owner.call('GET', '/review-progress?mode=live');
    expect(res.status).toBe(200);
    expect(res.body).toEqual({
      ok: true,
      total: 2,
      jobs: [
        expect.objectContaining({ job: newer, status: 'processing', target: 'es', texts: 1, pending: 0, in_review: 0, approved: 0, edited: 0 }),
        expect.objectContaining({ job: older, texts: 4, pending: 2, in_review: 1, approved: 1, edited: 1 }),
      ],
    });
    const page = await account.owner.call('GET', '/review-progress?mode=live&offset=1&limit=1');
    expect(page.body.jobs.map((job: { job: string }) => job.job)).toEqual([older]);
    expect((await account.owner.call('GET', '/review-progress?mode=sandbox')).body.total).toBe(1);
    const other = await accountWithOwner(app, url);
    expect((await other.owner.call('GET', '/review-progress?mode=live')).body).toEqual({ ok: true, jobs: [], total: 0 });
  });

  it('is for owners only', async () => {
    for (const role of ['member', 'reviewer'] as const) {
      const { browser } = await account.join(role);
      const res = await browser.call('GET', '/review-progress?mode=live');
      expect(res.status, role).toBe(403);
      expect(res.body).toEqual({ error: 'forbidden', message: `This needs the role owner; you are ${role}` });
    }
    expect((await new Browser(url).call('GET', '/review-progress?mode=live')).status).toBe(401);
    const bad = await account.owner.call('GET', '/review-progress?mode=live&limit=1000');
    expect(bad.body).toEqual({ error: 'invalid_request', message: 'limit must not be greater than 100' });
  });
});
