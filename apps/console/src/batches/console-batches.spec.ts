import type { NestFastifyApplication } from '@nestjs/platform-fastify';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { accountWithOwner, Browser, startConsole, type TestAccount } from '../console-browser.testing';
import { insertJob, keyOf, translation } from '../customer-area.testing';

describe('console batches over HTTP', () => {
  let app: NestFastifyApplication;
  let url: string;
  let account: TestAccount;

  beforeAll(async () => {
    ({ app, url } = await startConsole());
    account = await accountWithOwner(app, url, { activated: true });
  });
  afterAll(() => app?.close());

  it('lists the jobs of a mode newest first, a page at a time, with status and progress', async () => {
    const fresh = await accountWithOwner(app, url, { activated: true });
    const sandbox = await keyOf(app, fresh);
    const jobs = [];
    for (const status of ['done', 'processing', 'failed'] as const) jobs.push(await insertJob(app, sandbox, { texts: ['a b', 'c d'], status }));
    const live = await insertJob(app, await keyOf(app, fresh, { sandbox: false }), { texts: ['e f'] });

    const first = await fresh.owner.call('GET', '/batches?mode=sandbox&limit=2');
    expect(first.status).toBe(200);
    expect(first.body.batches.map((job: { id: string }) => job.id)).toEqual([jobs[2], jobs[1]]);
    expect(first.body.batches[1]).toMatchObject({ status: 'processing', progress: { done: 0, total: 2 }, target: 'es', tier: 'basic', completed_at: null });
    const second = await fresh.owner.call('GET', `/batches?mode=sandbox&limit=2&cursor=${first.body.next_cursor}`);
    expect(second.body).toMatchObject({ batches: [{ id: jobs[0], status: 'done', progress: { done: 2, total: 2 } }], next_cursor: null });
    expect((await fresh.owner.call('GET', '/batches?mode=live')).body.batches.map((job: { id: string }) => job.id)).toEqual([live]);

    for (const [query, message] of [
      ['mode=sandbox&limit=0', /limit must not be less than 1/],
      ['mode=sandbox&cursor=nonsense', /^cursor: not a cursor of this list/],
      ['limit=2', /^mode must be one of: sandbox, live$/],
    ] as const) {
      const res = await fresh.owner.call('GET', `/batches?${query}`);
      expect(res.status, query).toBe(422);
      expect(res.body).toEqual({ error: 'invalid_request', message: expect.stringMatching(message) });
    }
  });

  it('shows a job with its texts beside their translations, a page at a time', async () => {
    const texts = ['one two', 'three four', 'five six'];
    const job = await insertJob(app, await keyOf(app, account), { texts });
    const res = await account.owner.call('GET', `/batches/${job}?mode=sandbox&offset=1&limit=1`);
    expect(res.status).toBe(200);
    expect(res.body).toEqual({
      ok: true,
      job: expect.objectContaining({ id: job, status: 'done', progress: { done: 3, total: 3 } }),
      error: null,
      texts: [{ index: 1, source_text: 'three four', translation: translation('three four'), detected_source: 'en', words: 2 }],
      total: 3,
    });
    const failed = await insertJob(app, await keyOf(app, account), { texts, status: 'failed', error: 'The engine kept failing' });
    const shown = await account.owner.call('GET', `/batches/${failed}?mode=sandbox`);
    expect(shown.body).toMatchObject({ error: 'The engine kept failing', total: 3 });
    expect(shown.body.texts.map((text: { translation: string | null }) => text.translation)).toEqual([null, null, null]);
  });

  it('downloads the results of a done job as JSON or CSV, and refuses while it is not done', async () => {
    const key = await keyOf(app, account);
    const job = await insertJob(app, key, { texts: ['Good morning', '=cmd|x', 'say "hi", then go'] });
    const json = await account.owner.call('GET', `/batches/${job}/results?mode=sandbox`);
    expect(json.status).toBe(200);
    expect(json.headers.get('content-disposition')).toBe(`attachment; filename="${job}.json"; filename*=UTF-8''${job}.json`);
    expect(json.body).toEqual({
      job,
      target: 'es',
      results: ['Good morning', '=cmd|x', 'say "hi", then go'].map((text, index) => ({ index, source_text: text, translation: translation(text), detected_source: 'en', words: 2 })),
    });
    const csv = await account.owner.call('GET', `/batches/${job}/results?mode=sandbox&format=csv`);
    expect(csv.headers.get('content-type')).toBe('text/csv; charset=utf-8');
    expect(csv.text).toBe(
      'index,source_text,translation,detected_source,words\r\n0,Good morning,es:Good morning,en,2\r\n' +
        `1,'=cmd|x,es:=cmd|x,en,2\r\n2,"say ""hi"", then go","es:say ""hi"", then go",en,2\r\n`,
    );
    const running = await insertJob(app, key, { texts: ['a b'], status: 'processing' });
    const refused = await account.owner.call('GET', `/batches/${running}/results?mode=sandbox`);
    expect(refused.status).toBe(409);
    expect(refused.body).toEqual({ error: 'batch_not_done', message: `Batch job ${running} is processing; results can be downloaded once it is done` });
    expect((await account.owner.call('GET', `/batches/${job}/results?mode=sandbox&format=xml`)).body).toEqual({ error: 'invalid_request', message: 'format must be one of: json, csv' });
  });

  it("answers 404 for another account's job, the other mode's and unknown ids", async () => {
    const job = await insertJob(app, await keyOf(app, account), { texts: ['a b'] });
    const other = await accountWithOwner(app, url);
    for (const path of [`/batches/${job}?mode=sandbox`, `/batches/${job}/results?mode=sandbox`]) {
      const res = await other.owner.call('GET', path);
      expect(res.status, path).toBe(404);
      expect(res.body).toEqual({ error: 'not_found', message: `Batch job ${job} not found` });
    }
    expect((await account.owner.call('GET', `/batches/${job}?mode=live`)).status).toBe(404);
    expect((await account.owner.call('GET', '/batches/job_nope?mode=sandbox')).status).toBe(404);
  });

  it('lets members in and refuses reviewers and the signed-out', async () => {
    const { browser: member } = await account.join('member');
    expect((await member.call('GET', '/batches?mode=sandbox')).status).toBe(200);
    const { browser: reviewer } = await account.join('reviewer');
    expect((await reviewer.call('GET', '/batches?mode=sandbox')).status).toBe(403);
    expect((await new Browser(url).call('GET', '/batches?mode=sandbox')).status).toBe(401);
  });
});
