import { randomUUID } from 'node:crypto';
import type { Browser, Page } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { runAdmin } from '../admin.command';
import { stack } from '../stack.config';
import { expectAcceptedJob, finishedJob, translate, translationApi } from '../translation.client';
import { acceptInvitation, awaitReviewTask, consolePage, inspectPage, launchChromium, operatorAccount } from './console-browser';

const LANGUAGE = 'pt';
const SOURCE = 'Save the {count} files before you close the window.';
const REMEMBERED = 'Guarde os {count} ficheiros antes de fechar a janela.';
const SIMILAR_SOURCE = 'Save the files before you close the window.';
const SIMILAR = 'Guarde os ficheiros antes de fechar a janela.';
const OTHER_ACCOUNTS = 'Tradução secreta de outra conta {count}.';
const SOON = { timeout: 10_000 };
/** Seven admin commands, each a start of a built app, before the job is even submitted. */
const SETUP_MS = 240_000;

/** A live memory of the key's account holding these translations into Portuguese, written through the public API. */
async function liveMemory(key: string, pairs: [string, string][]): Promise<void> {
  const created = await translationApi('POST', '/memories', key, { json: { name: 'Product UI', source: 'en' } });
  expect(created.status).toBe(201);
  for (const [source, target] of pairs) {
    const added = await translationApi('POST', `/memories/${created.body.memory.id}/entries`, key, { json: { source_lang: 'en', target_lang: LANGUAGE, source, target } });
    expect(added.status).toBe(201);
  }
}

describe("memory suggestions in the reviewer workspace: the account's own translations, inserted into the edit", () => {
  let browser: Browser;
  let reviewer: Page;
  let liveKey: string;
  let job: string;

  beforeAll(async () => {
    browser = await launchChromium();
    reviewer = await consolePage(browser);
  });
  afterAll(() => browser?.close());

  it("lets a customer fill a live memory through the API, and its reviewer get the customer's review-tier text", async () => {
    // Activated accounts (no --sandbox): only live jobs' tasks reach people.
    const account = await operatorAccount({ sandbox: false });
    liveKey = await runAdmin(stack.translateAdmin, ['key:create', '--account', account.name]);
    const link = await runAdmin(stack.consoleAdmin, ['user:invite', '--account', account.name, '--email', `reviewer-${randomUUID().slice(0, 8)}@example.eu`, '--role', 'reviewer', '--languages', LANGUAGE]);
    await acceptInvitation(reviewer, link);
    // Translated before the memory holds the text (a job looks memory up when it is accepted): the
    // engine's translation is what the reviewer corrects with the suggestions stored since.
    job = expectAcceptedJob(await translate(liveKey, { source: 'en', target: LANGUAGE, tier: 'review', texts: [SOURCE] }));
    await liveMemory(liveKey, [
      [SOURCE, REMEMBERED],
      [SIMILAR_SOURCE, SIMILAR],
    ]);
    // Another account holds a translation of the very same text: its reviewers' business only.
    const other = await operatorAccount({ sandbox: false });
    await liveMemory(await runAdmin(stack.translateAdmin, ['key:create', '--account', other.name]), [[SOURCE, OTHER_ACCOUNTS]]);
  }, SETUP_MS);

  it('shows the exact and the fuzzy suggestion of the account beside the editor, and none of the other account', async () => {
    await awaitReviewTask(reviewer, job);

    const panel = reviewer.getByRole('region', { name: 'Translation memory' });
    const suggestions = panel.getByRole('listitem');
    await expect.poll(() => suggestions.count(), SOON).toBe(2);
    expect(await suggestions.nth(0).textContent()).toContain(REMEMBERED);
    expect(await suggestions.nth(0).textContent()).toContain('Exact match');
    expect(await suggestions.nth(0).textContent()).toContain('Memory “Product UI” · Written through the API');
    expect(await suggestions.nth(1).textContent()).toContain(SIMILAR);
    expect(await suggestions.nth(1).textContent()).toMatch(/\d+(\.\d)?% similar/);
    expect(await panel.textContent()).not.toContain(OTHER_ACCOUNTS);
    await inspectPage(reviewer, 'review-memory-suggestions', { moderate: true });
  });

  it('inserts the exact suggestion into the chip editor, and the saved edit is the job\u2019s result', async () => {
    await reviewer.getByRole('button', { name: `Insert “${REMEMBERED}”` }).click();
    await expect.poll(() => reviewer.getByRole('status').filter({ hasText: 'Suggestion inserted.' }).count(), SOON).toBe(1);
    const editor = reviewer.getByRole('group', { name: 'Your translation' });
    // The suggestion keeps the machine translation's variable, so it stays a chip between two text fields.
    expect(await editor.getByRole('button').allTextContents()).toEqual(['{count}']);
    expect(await editor.getByRole('textbox', { name: 'Text 1 of 2' }).inputValue()).toBe('Guarde os ');
    expect(await editor.getByRole('textbox', { name: 'Text 2 of 2' }).inputValue()).toBe(' ficheiros antes de fechar a janela.');
    await inspectPage(reviewer, 'review-memory-inserted', { moderate: true });

    await reviewer.keyboard.press('Control+s');
    await expect.poll(() => reviewer.getByRole('status').filter({ hasText: 'Edit saved' }).count(), SOON).toBe(1);
    const done = await finishedJob(liveKey, job);
    expect(done.results).toEqual([expect.objectContaining({ index: 0, translation: REMEMBERED })]);
  });
});
