import type { NestFastifyApplication } from '@nestjs/platform-fastify';
import type { AccountMode } from '@platform/contracts';
import { ReviewerService, ReviewTasks } from '@platform/review';
import { insertJobInReview } from '@platform/review/testing';
import { createTestKey } from '@platform/testing';
import { MemoryService } from '@platform/translation-memory';
import { DataSource } from 'typeorm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { accountWithOwner, startConsole, type Browser, type TestAccount } from '../console-browser.testing';

/** A language of this file's own, so the tasks its reviewers claim are this file's. */
const LANGUAGE = 'hr';
const SOURCE = 'Save the {count} files before you close the window.';
const MACHINE = 'Spremite {count} datoteke prije zatvaranja prozora.';

describe("reviewers' memory suggestions", () => {
  let app: NestFastifyApplication;
  let url: string;
  let accountA: TestAccount;
  let accountB: TestAccount;

  /** An entry in a memory of the account's mode, written as an import would. */
  async function remember(account: TestAccount, sandbox: boolean, name: string, pairs: [string, string][], target = LANGUAGE): Promise<void> {
    const mode: AccountMode = { accountId: account.accountId, sandbox };
    const memories = app.get(MemoryService);
    const { id } = await memories.create(mode, { name, source: 'en' });
    for (const [source, translation] of pairs) await memories.addEntry(mode, id, { sourceLang: 'en', targetLang: target, source, target: translation }, { format: 'tmx', tool: 'Test tool' });
  }

  async function heldTask(account: TestAccount, text = SOURCE, options: { format?: 'text' | 'json'; translation?: string } = {}): Promise<{ reviewer: Browser; taskId: string }> {
    const key = await createTestKey({ sandbox: false, accountId: account.accountId });
    const jobId = await insertJobInReview(app, { key, target: LANGUAGE, source: text, translation: options.translation ?? MACHINE, format: options.format });
    const { browser } = await account.join('reviewer', { languages: [LANGUAGE] });
    const { task } = (await browser.call('GET', `/review/tasks/next?lang=${LANGUAGE}`)).body;
    expect(task.job).toBe(jobId);
    return { reviewer: browser, taskId: task.id };
  }

  beforeAll(async () => {
    ({ app, url } = await startConsole());
    [accountA, accountB] = [await accountWithOwner(app, url, { activated: true }), await accountWithOwner(app, url, { activated: true })];
    await remember(accountA, false, 'A live', [
      ['Save the {count} files before you close the window.', 'A: Spremite {count} datoteke prije nego zatvorite prozor.'],
      ['Save the files before you close the window.', 'A: Spremite datoteke prije zatvaranja.'],
      ['Good morning', 'A: Dobro jutro'],
    ]);
    await remember(accountA, true, 'A sandbox', [['Save the {count} files before you close the window.', 'A sandbox: nikad']]);
    await remember(accountB, false, 'B live', [['Save the {count} files before you close the window.', 'B: tuđe']]);
  });
  afterAll(() => app?.close());

  it("suggests the exact and fuzzy entries of the task's account and live mode, with similarity, memory, origin and provenance", async () => {
    const { reviewer, taskId } = await heldTask(accountA);
    const res = await reviewer.call('GET', `/review/tasks/${taskId}/suggestions`);
    expect(res.status).toBe(200);
    expect(res.body).toMatchObject({ ok: true, source_language: 'en', segments: [{ text: SOURCE, value: 0, paragraph: 0 }] });
    const [{ suggestions }] = res.body.segments;
    expect(suggestions.map((suggestion: { target: string }) => suggestion.target)).toEqual([
      'A: Spremite {count} datoteke prije nego zatvorite prozor.',
      'A: Spremite datoteke prije zatvaranja.',
    ]);
    expect(suggestions[0]).toMatchObject({ match: 'exact', similarity: 1, memory: { name: 'A live' }, origin: 'api', provenance: { format: 'tmx', tool: 'Test tool' } });
    expect(suggestions[1]).toMatchObject({ match: 'fuzzy', memory: { name: 'A live' } });
    expect(suggestions[1].similarity).toBeGreaterThan(0.4);
    expect(suggestions[1].similarity).toBeLessThan(1);
    // What a reviewer sends cannot choose another account, mode or pair: the route reads nothing but the task.
    const steered = await reviewer.call('GET', `/review/tasks/${taskId}/suggestions?account=${accountB.accountId}&mode=sandbox&source=en&target=${LANGUAGE}`);
    expect(steered.body).toEqual(res.body);
    await reviewer.call('POST', `/review/tasks/${taskId}/approve`);
  });

  it("never gives a reviewer of account A an entry of account B, nor B's reviewer A's task", async () => {
    const { reviewer: reviewerOfB, taskId: taskOfB } = await heldTask(accountB);
    const ofB = (await reviewerOfB.call('GET', `/review/tasks/${taskOfB}/suggestions`)).body.segments[0].suggestions;
    expect(ofB.map((suggestion: { target: string }) => suggestion.target)).toEqual(['B: tuđe']);

    const { reviewer: reviewerOfA, taskId: taskOfA } = await heldTask(accountA);
    expect(await reviewerOfB.call('GET', `/review/tasks/${taskOfA}/suggestions`)).toMatchObject({ status: 404, body: { error: 'not_found' } });
    expect(await reviewerOfA.call('GET', `/review/tasks/${taskOfB}/suggestions`)).toMatchObject({ status: 404, body: { error: 'not_found' } });
    const ofA = JSON.stringify((await reviewerOfA.call('GET', `/review/tasks/${taskOfA}/suggestions`)).body);
    expect(ofA).not.toContain('B: ');
    expect(ofA).not.toContain('A sandbox');
    for (const [reviewer, task] of [[reviewerOfA, taskOfA], [reviewerOfB, taskOfB]] as const) await reviewer.call('POST', `/review/tasks/${task}/approve`);
  });

  it("gives a reviewer of the platform's pool the memory of the account whose job they hold, and no other's", async () => {
    const key = await createTestKey({ sandbox: false, accountId: accountB.accountId });
    const jobId = await insertJobInReview(app, { key, target: 'mt', source: 'Good morning', translation: 'Bongu', reviewPool: true });
    await remember(accountB, false, 'B Maltese', [['Good morning!', 'B: Bongu!']], 'mt');
    const pool = (await app.get(ReviewerService).create(['mt'])).reviewer;
    const tasks = app.get(ReviewTasks);
    let claimed = await tasks.claim(pool, 'mt');
    while (claimed && claimed.task.jobId !== jobId) claimed = await tasks.claim(pool, 'mt');
    const found = await tasks.suggestions(pool, claimed!.task.id);
    expect(found.segments[0].suggestions.map((suggestion) => suggestion.target)).toEqual(['B: Bongu!']);
  });

  it('cuts a text into paragraphs and a JSON text into its strings, each with its own suggestions', async () => {
    const text = await heldTask(accountA, `${SOURCE}\n\nGood morning`, { translation: `${MACHINE}\n\nDobro jutro` });
    const segments = (await text.reviewer.call('GET', `/review/tasks/${text.taskId}/suggestions`)).body.segments;
    expect(segments.map((segment: { text: string; paragraph: number }) => [segment.paragraph, segment.text])).toEqual([
      [0, SOURCE],
      [1, 'Good morning'],
    ]);
    expect(segments[1].suggestions).toMatchObject([{ match: 'exact', target: 'A: Dobro jutro' }]);
    await text.reviewer.call('POST', `/review/tasks/${text.taskId}/approve`);

    const json = await heldTask(accountA, '{"@@locale":"en","greeting":"Good morning","@greeting":{"description":"Good morning"}}', {
      format: 'json',
      translation: '{"@@locale":"hr","greeting":"Dobro jutro","@greeting":{"description":"Good morning"}}',
    });
    const strings = (await json.reviewer.call('GET', `/review/tasks/${json.taskId}/suggestions`)).body.segments;
    expect(strings).toMatchObject([{ text: 'Good morning', value: 0, paragraph: 0 }]);
    // The approval of the text above taught the default memory, whose entry is the latest.
    expect(strings[0].suggestions).toMatchObject([
      { target: 'Dobro jutro', memory: { name: 'default' }, origin: 'reviewer_approval', provenance: { job: expect.any(String), reviewer: expect.any(String) } },
      { target: 'A: Dobro jutro', memory: { name: 'A live' } },
    ]);
    await json.reviewer.call('POST', `/review/tasks/${json.taskId}/approve`);
  });

  it('keeps the route to reviewers and to their own tasks', async () => {
    const { reviewer, taskId } = await heldTask(accountA);
    expect((await accountA.owner.call('GET', `/review/tasks/${taskId}/suggestions`)).status).toBe(403);
    const { browser: colleague } = await accountA.join('reviewer', { languages: [LANGUAGE] });
    expect((await colleague.call('GET', `/review/tasks/${taskId}/suggestions`)).status).toBe(404);
    expect((await colleague.call('GET', '/review/tasks/not-a-task/suggestions')).status).toBe(404);
    await app.get(DataSource).query(`UPDATE translation.review_tasks SET status = 'approved', answered_at = now(), lease_until = NULL WHERE id = $1`, [taskId]);
    // An answered task of theirs still shows what the memory held.
    expect((await reviewer.call('GET', `/review/tasks/${taskId}/suggestions`)).status).toBe(200);
  });
});
