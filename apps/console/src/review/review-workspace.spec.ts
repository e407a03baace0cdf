import type { NestFastifyApplication } from '@nestjs/platform-fastify';
import { ReviewerService } from '@platform/review';
import { insertJobInReview } from '@platform/review/testing';
import { createTestKey } from '@platform/testing';
import { DEFAULT_TYPOGRAPHY } from '@platform/translation-pipeline';
import { randomUUID } from 'node:crypto';
import { DataSource } from 'typeorm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { accountWithOwner, sql, startConsole, type Browser, type TestAccount } from '../console-browser.testing';

/** The account is this file's own, and its reviewers see its tasks only: the open tasks are this file's. */
const LANGUAGE = 'lv';
const SOURCE = 'Hello {name}, the <b>sofa</b> is red.';
const MACHINE = 'Sveiki {name}, <b>dīvāns</b> ir sarkans.';
const GOOD_EDIT = 'Sveiki, {name}! <b>Dīvāns</b> ir sarkanā krāsā.';

describe('the reviewer workspace over HTTP', () => {
  let app: NestFastifyApplication;
  let url: string;
  let account: TestAccount;

  /** A live review-tier job of the account, of one text in review. */
  async function jobInReview(): Promise<string> {
    const key = await createTestKey({ sandbox: false, accountId: account.accountId });
    return insertJobInReview(app, { key, target: LANGUAGE, source: SOURCE, translation: MACHINE, glossary: { source: 'en', target: LANGUAGE, entries: [{ term: 'sofa', translation: 'dīvāns' }] } });
  }

  async function reviewer(languages = [LANGUAGE]): Promise<{ browser: Browser; userId: string }> {
    return account.join('reviewer', { languages });
  }

  const result = async (jobId: string) => {
    const [job] = await app.get(DataSource).query(
      `SELECT j.status, t.translation FROM translation.batch_jobs j JOIN translation.batch_texts t ON t.job_id = j.id WHERE j.id = $1`,
      [jobId],
    );
    return job as { status: string; translation: string };
  };

  beforeAll(async () => {
    ({ app, url } = await startConsole());
    account = await accountWithOwner(app, url);
  });
  afterAll(() => app?.close());

  it('gives a reviewer their task with what an edit must keep, and the same task again until it is answered', async () => {
    const jobId = await jobInReview();
    const { browser } = await reviewer([LANGUAGE, 'de']);
    expect((await browser.call('GET', '/review')).body).toEqual({ ok: true, reviewer: { languages: [LANGUAGE, 'de'] }, lease_seconds: 900 });

    const next = await browser.call('GET', `/review/tasks/next?lang=${LANGUAGE}`);
    expect(next.status).toBe(200);
    expect(next.body.task).toEqual({
      id: expect.any(String),
      job: jobId,
      index: 0,
      source_language: 'en',
      target: LANGUAGE,
      format: 'text',
      source_text: SOURCE,
      machine_translation: MACHINE,
      status: 'claimed',
      lease_until: expect.any(String),
      answered_at: null,
      translation: null,
      tokens: [
        { kind: 'variable', text: '{name}', start: 7, end: 13 },
        { kind: 'markup', text: '<b>', start: 15, end: 18 },
        { kind: 'markup', text: '</b>', start: 24, end: 28 },
      ],
      terms: [{ term: 'sofa', translation: 'dīvāns', count: 1 }],
      do_not_translate: [],
      style: null,
    });
    expect(Date.parse(next.body.task.lease_until) - Date.now()).toBeGreaterThan(890_000);
    expect((await browser.call('GET', `/review/tasks/next?lang=${LANGUAGE}`)).body.task.id).toBe(next.body.task.id);
    expect((await browser.call('GET', '/review/tasks/next?lang=de')).body).toEqual({ ok: true, task: null });

    expect(await browser.call('GET', '/review/tasks/next?lang=fr')).toMatchObject({ status: 403, body: { error: 'forbidden', message: `You review ${LANGUAGE}, de, not fr` } });
    expect(await browser.call('GET', '/review/tasks/next?lang=FR')).toMatchObject({ status: 422, body: { error: 'invalid_request' } });
    await browser.call('POST', `/review/tasks/${next.body.task.id}/approve`);
  });

  it('refuses an edit that drops a variable or a glossary term with 422 naming it, and takes a good edit into the job', async () => {
    const jobId = await jobInReview();
    const { browser } = await reviewer();
    const { task } = (await browser.call('GET', `/review/tasks/next?lang=${LANGUAGE}`)).body;

    const dropped = await browser.call('POST', `/review/tasks/${task.id}/edit`, { translation: 'Sveiki, <b>dīvāns</b> ir sarkans.' });
    expect(dropped.status).toBe(422);
    expect(dropped.body).toEqual({
      error: 'invalid_request',
      message: 'The edit must keep the variables, markup and glossary terms of the machine translation: variable {name} is missing',
      problems: [{ kind: 'variable', text: '{name}', expected: 1, found: 0 }],
    });
    const noTerm = await browser.call('POST', `/review/tasks/${task.id}/edit`, { translation: 'Sveiki {name}, <b>sofa</b> ir sarkana.' });
    expect(noTerm.status).toBe(422);
    expect(noTerm.body.problems).toEqual([{ kind: 'term', text: 'dīvāns', term: 'sofa', expected: 1, found: 0 }]);
    expect((await browser.call('POST', `/review/tasks/${task.id}/edit`, { translation: '' })).body.message).toBe('translation must be from 1 to 60000 characters');
    expect(await result(jobId)).toEqual({ status: 'processing', translation: MACHINE });

    const edited = await browser.call('POST', `/review/tasks/${task.id}/edit`, { translation: GOOD_EDIT });
    expect(edited).toMatchObject({ status: 200, body: { ok: true, task: task.id, status: 'edited' } });
    expect(await result(jobId)).toEqual({ status: 'done', translation: GOOD_EDIT });
    expect((await browser.call('GET', `/review/tasks/${task.id}`)).body.task).toMatchObject({ status: 'edited', translation: GOOD_EDIT, lease_until: null, answered_at: expect.any(String) });
    expect(await browser.call('POST', `/review/tasks/${task.id}/approve`)).toMatchObject({ status: 409, body: { error: 'already_answered' } });
  });

  it("shows the style profile's notes beside the task, its do-not-translate terms as tokens, and refuses an edit that drops one", async () => {
    const key = await createTestKey({ sandbox: false, accountId: account.accountId });
    const styleProfile = {
      id: randomUUID(),
      name: 'Brand',
      doNotTranslate: [{ term: 'Notion', caseSensitive: true }],
      typography: DEFAULT_TYPOGRAPHY,
      formality: 'default' as const,
      glossary: null,
      memory: null,
      notes: 'Keep product names in English; address the reader informally.',
    };
    await insertJobInReview(app, { key, target: LANGUAGE, source: 'Open {name} in Notion.', translation: 'Atveriet {name} Notion.', styleProfile });
    const { browser } = await reviewer();
    const { task } = (await browser.call('GET', `/review/tasks/next?lang=${LANGUAGE}`)).body;
    expect(task).toMatchObject({
      style: { name: 'Brand', notes: styleProfile.notes },
      do_not_translate: [{ term: 'Notion', case_sensitive: true }],
      tokens: [
        { kind: 'variable', text: '{name}', start: 9, end: 15 },
        { kind: 'do_not_translate', text: 'Notion', start: 16, end: 22 },
      ],
    });

    const dropped = await browser.call('POST', `/review/tasks/${task.id}/edit`, { translation: 'Atveriet {name} Pierakstos.' });
    expect(dropped.status).toBe(422);
    expect(dropped.body.problems).toEqual([{ kind: 'do_not_translate', text: 'Notion', expected: 1, found: 0 }]);
    expect(dropped.body.message).toMatch(/the do-not-translate term "Notion" is missing/);
    expect((await browser.call('POST', `/review/tasks/${task.id}/edit`, { translation: 'Atveriet {name} lietotnē Notion.' })).status).toBe(200);
  });

  it('approves, lists the reviewer\u2019s tasks held first and latest answer first, and shows no one else\u2019s', async () => {
    const { browser } = await reviewer();
    const answered: string[] = [];
    for (let i = 0; i < 2; i++) {
      const jobId = await jobInReview();
      const { task } = (await browser.call('GET', `/review/tasks/next?lang=${LANGUAGE}`)).body;
      expect(await browser.call('POST', `/review/tasks/${task.id}/approve`)).toMatchObject({ status: 200, body: { status: 'approved' } });
      expect(await result(jobId)).toEqual({ status: 'done', translation: MACHINE });
      answered.unshift(task.id);
    }
    await jobInReview();
    const held = (await browser.call('GET', `/review/tasks/next?lang=${LANGUAGE}`)).body.task;
    const recent = await browser.call('GET', '/review/tasks');
    expect(recent.body.tasks.map((task: { id: string }) => task.id)).toEqual([held.id, ...answered]);
    expect(recent.body.tasks[0]).toEqual({ id: held.id, target: LANGUAGE, status: 'claimed', excerpt: SOURCE, lease_until: held.lease_until, answered_at: null });

    const other = await reviewer();
    expect(await other.browser.call('GET', `/review/tasks/${held.id}`)).toMatchObject({ status: 404, body: { error: 'not_found' } });
    expect(await other.browser.call('POST', `/review/tasks/${held.id}/approve`)).toMatchObject({ status: 409, body: { error: 'not_claimed' } });
    expect((await other.browser.call('GET', '/review/tasks')).body.tasks).toEqual([]);
    await browser.call('POST', `/review/tasks/${held.id}/approve`);
  });

  it('renews a running lease, and answers 409 lease_expired to renewing or answering after it ran out', async () => {
    await jobInReview();
    const { browser } = await reviewer();
    const { task } = (await browser.call('GET', `/review/tasks/next?lang=${LANGUAGE}`)).body;
    await sql(`UPDATE translation.review_tasks SET lease_until = now() + interval '5 seconds' WHERE id = $1`, [task.id]);
    const renewed = await browser.call('POST', `/review/tasks/${task.id}/lease`);
    expect(renewed.body).toEqual({ ok: true, task: task.id, lease_until: expect.any(String) });
    expect(Date.parse(renewed.body.lease_until) - Date.now()).toBeGreaterThan(890_000);

    await sql(`UPDATE translation.review_tasks SET lease_until = now() - interval '1 second' WHERE id = $1`, [task.id]);
    const expired = { status: 409, body: { error: 'lease_expired', message: 'Your lease on this task ran out; it went back to the pool' } };
    expect(await browser.call('POST', `/review/tasks/${task.id}/lease`)).toMatchObject(expired);
    expect(await browser.call('POST', `/review/tasks/${task.id}/edit`, { translation: GOOD_EDIT })).toMatchObject(expired);
    expect(await browser.call('POST', `/review/tasks/${task.id}/approve`)).toMatchObject(expired);
    expect(await browser.call('POST', '/review/tasks/not-a-task/lease')).toMatchObject({ status: 404 });

    // Back in the pool, the task is anyone's next: here the same reviewer's again.
    const again = (await browser.call('GET', `/review/tasks/next?lang=${LANGUAGE}`)).body.task;
    expect(again.id).toBe(task.id);
    await browser.call('POST', `/review/tasks/${again.id}/approve`);
  });

  it('keeps the reviewer routes to reviewers, and needs the CSRF token to change anything', async () => {
    const { browser: member } = await account.join('member');
    for (const browser of [account.owner, member]) {
      for (const [method, path] of [
        ['GET', '/review'],
        ['GET', `/review/tasks/next?lang=${LANGUAGE}`],
        ['POST', '/review/tasks/00000000-0000-4000-8000-000000000000/approve'],
      ] as const) {
        expect(await browser.call(method, path), `${method} ${path}`).toMatchObject({ status: 403, body: { error: 'forbidden' } });
      }
    }

    await jobInReview();
    const { browser } = await reviewer();
    const { task } = (await browser.call('GET', `/review/tasks/next?lang=${LANGUAGE}`)).body;
    for (const path of [`/review/tasks/${task.id}/approve`, `/review/tasks/${task.id}/lease`, `/review/tasks/${task.id}/edit`]) {
      expect(await browser.call('POST', path, { translation: GOOD_EDIT }, { csrf: false }), path).toMatchObject({ status: 403, body: { error: 'csrf_token_invalid' } });
    }
    expect((await browser.call('GET', `/review/tasks/${task.id}`)).body.task.status).toBe('claimed');
    await browser.call('POST', `/review/tasks/${task.id}/approve`);
  });

  it('stops a reviewer revoked by an operator at once, and one whose user is removed', async () => {
    const { browser, userId } = await reviewer();
    const listed = (await account.owner.call('GET', '/users')).body.users.find((user: { id: string }) => user.id === userId);
    expect(listed).toEqual({ id: userId, email: expect.any(String), role: 'reviewer', reviewer: { id: expect.any(String), languages: [LANGUAGE], revoked_at: null } });

    // What `admin reviewer:revoke ID` does.
    await app.get(ReviewerService).revoke(listed.reviewer.id);
    const refused = await browser.call('GET', `/review/tasks/next?lang=${LANGUAGE}`);
    expect(refused).toMatchObject({ status: 403, body: { error: 'reviewer_revoked', message: 'An operator revoked your reviewer access; ask the account\u2019s owner' } });
    expect((await account.owner.call('GET', '/users')).body.users.find((user: { id: string }) => user.id === userId).reviewer.revoked_at).toEqual(expect.any(String));

    const removed = await reviewer();
    const reviewerId = (await account.owner.call('PATCH', `/users/${removed.userId}`, { languages: ['de'] })).body.user.reviewer.id;
    expect((await account.owner.call('DELETE', `/users/${removed.userId}`)).status).toBe(200);
    expect((await removed.browser.call('GET', '/review')).status).toBe(401);
    expect((await app.get(ReviewerService).find(reviewerId))?.revokedAt).toBeInstanceOf(Date);
  });

  it('lets an owner invite reviewers with languages or without, make a user a reviewer, and change a reviewer\u2019s languages', async () => {
    const invite = (json: object) => account.owner.call('POST', '/users/invitations', { email: `x-${Math.random()}@example.eu`, ...json });
    expect((await invite({ role: 'member', languages: ['de'] })).body).toEqual({ error: 'invalid_request', message: 'languages: only reviewers have languages, not a member' });
    expect((await invite({ role: 'reviewer', languages: ['xx'] })).body.message).toBe('languages must be a list of EU language codes such as ["de", "fr"]');
    expect((await invite({ role: 'reviewer', languages: ['de', 'de', 'fr'] })).body.invitation).toMatchObject({ role: 'reviewer', languages: ['de', 'fr'] });

    // Without languages a reviewer reviews nothing until the owner gives them some.
    const { browser, userId } = await account.join('reviewer', {});
    expect(await browser.call('GET', '/review')).toMatchObject({ status: 403, body: { error: 'forbidden', message: 'You have no languages to review yet: the account\u2019s owner sets them' } });
    const patch = (json: object) => account.owner.call('PATCH', `/users/${userId}`, json);
    expect(await patch({})).toMatchObject({ status: 422, body: { message: 'Send the new role, languages (for a reviewer) or both' } });
    expect((await patch({ languages: ['fi'] })).body.user).toMatchObject({ role: 'reviewer', reviewer: { languages: ['fi'] } });
    expect((await browser.call('GET', '/review')).body.reviewer.languages).toEqual(['fi']);
    expect((await patch({ languages: ['fi', 'sv'] })).body.user.reviewer.languages).toEqual(['fi', 'sv']);
    expect((await patch({ role: 'member' })).body.user).toEqual({ id: userId, email: expect.any(String), role: 'member' });
    expect((await browser.call('GET', '/review')).status).toBe(403);
    expect(await patch({ languages: ['fi'] })).toMatchObject({ status: 422, body: { message: 'languages: only reviewers have languages, not a member' } });
    // Back as a reviewer, with the languages they had.
    expect((await patch({ role: 'reviewer' })).body.user.reviewer.languages).toEqual(['fi', 'sv']);
    expect((await browser.call('GET', '/review')).status).toBe(200);

    const { userId: memberId } = await account.join('member');
    expect((await account.owner.call('PATCH', `/users/${memberId}`, { role: 'reviewer' })).body.user).toEqual({ id: memberId, email: expect.any(String), role: 'reviewer' });
  });
});
