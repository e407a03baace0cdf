import type { Browser, Page } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { runAdmin } from '../admin.command';
import { stack } from '../stack.config';
import { expectAcceptedJob, finishedJob, translate, translationApi } from '../translation.client';
import { acceptInvitation, awaitReviewTask, consolePage, heading, inspectPage, launchChromium, operatorAccount, takeSecret, type OperatorAccount } from './console-browser';

const LANGUAGE = 'it';
const SOURCE = 'Hello {name}, the <b>sofa</b> is red.';
const ADDED = ' Rivisto.';
/** What follows a click or a key is a round trip to the session API on a busy machine. */
const SOON = { timeout: 10_000 };

interface HeldTask {
  id: string;
  job: string;
  machine_translation: string;
}

/** The task the reviewer's page holds, as the session API gives it to the page (GET needs no CSRF token). */
async function heldTask(page: Page): Promise<HeldTask> {
  const answer = await page.request.get(`/console/api/review/tasks/next?lang=${LANGUAGE}`);
  expect(answer.status()).toBe(200);
  return ((await answer.json()) as { task: HeldTask }).task;
}

describe('the reviewer workspace in a browser: a customer\u2019s review-tier text edited by a reviewer of the account', () => {
  let browser: Browser;
  let owner: Page;
  let reviewer: Page;
  let account: OperatorAccount;
  let liveKey: string;
  let job: string;

  beforeAll(async () => {
    browser = await launchChromium();
    owner = await consolePage(browser);
    reviewer = await consolePage(browser);
    // The reviewer's page gets a clock the test can move, to see the lease's warning without waiting for it.
    await reviewer.clock.install();
    // Activated (no --sandbox): only live jobs' tasks reach people.
    account = await operatorAccount({ sandbox: false });
    liveKey = await runAdmin(stack.translateAdmin, ['key:create', '--account', account.name]);
  });
  afterAll(() => browser?.close());

  it('lets the owner invite a reviewer of Italian, who lands in the workspace', async () => {
    await acceptInvitation(owner, account.invitationLink);
    await owner.getByRole('link', { name: 'Users' }).click();
    await expect.poll(() => heading(owner), SOON).toBe('Users');
    await owner.getByLabel('Email address').fill(`reviewer-${Date.now()}@example.eu`);
    await owner.getByLabel('Role', { exact: true }).selectOption('reviewer');
    await owner.getByLabel('Languages to review').fill(LANGUAGE);
    await owner.getByRole('button', { name: 'Invite' }).click();
    const link = await takeSecret(owner, /^Invitation link for reviewer-/);

    await acceptInvitation(reviewer, link);
    expect(await heading(reviewer)).toBe('Review');
    expect(reviewer.url()).toMatch(/\/console\/review/);
  });

  it("shows the owner who reviews each language, and takes the choice of the platform's reviewers", async () => {
    // The reviewer accepted in their own browser; the owner's page asks again when opened.
    await owner.reload();
    const section = owner.getByRole('region', { name: 'Who reviews' });
    const italian = section.getByRole('row', { name: /^Italian \(it\)/ });
    await expect.poll(() => italian.getByRole('cell').nth(0).textContent(), SOON).toBe('1');
    expect(await italian.getByRole('cell').nth(2).textContent()).toBe('Reviewed by your reviewers');
    expect(await section.getByRole('row', { name: /^German \(de\)/ }).getByRole('cell').nth(2).textContent()).toBe('Refused: nobody reviews it');

    const allow = section.getByRole('checkbox', { name: "Let the platform's reviewers review Italian" });
    await allow.check();
    // The platform has no reviewer of Italian on this stack: the account's own still review alone.
    expect(await italian.getByRole('cell').nth(1).textContent()).toBe('Allow (none at the moment)');
    expect(await italian.getByRole('cell').nth(2).textContent()).toBe('Reviewed by your reviewers');
    await section.getByRole('button', { name: 'Save' }).click();
    await expect.poll(() => section.getByRole('status').textContent(), SOON).toContain('Saved');
    await inspectPage(owner, 'users-who-reviews');
    // Back to the account's own reviewers, which the job below is then recorded with.
    await allow.uncheck();
    await section.getByRole('button', { name: 'Save' }).click();
    await expect.poll(() => section.getByRole('status').count(), SOON).toBe(1);
    await owner.reload();
    await expect.poll(() => owner.getByRole('checkbox', { name: "Let the platform's reviewers review Italian" }).isChecked(), SOON).toBe(false);
  });

  it('lets the customer submit a review-tier text with a glossary through a live key, now that the account has a reviewer of it', async () => {
    const glossary = await translationApi('POST', '/glossaries', liveKey, { json: { name: 'furniture', source: 'en', entries: [{ term: 'sofa', translations: { [LANGUAGE]: 'divano' } }] } });
    expect(glossary.status).toBe(201);
    expect(liveKey).toMatch(/^svc_live_/);
    job = expectAcceptedJob(await translate(liveKey, { source: 'en', target: LANGUAGE, tier: 'review', glossary: glossary.body.glossary.id, texts: [SOURCE] }));
    expect((await translationApi('GET', `/batches/${job}`, liveKey)).body.reviewed_by).toBe('account');
  });

  it('gets the customer\u2019s task: source and machine translation side by side, chips, the glossary term, the lease', async () => {
    await awaitReviewTask(reviewer, job);
    await expect.poll(() => reviewer.getByRole('region', { name: 'Source (English)' }).textContent(), SOON).toContain('Hello');
    expect(await reviewer.getByRole('region', { name: 'Source (English)' }).locator('mark.term').textContent()).toContain('sofa');
    expect(await reviewer.getByRole('region', { name: 'Machine translation (Italian)' }).locator('mark.term').textContent()).toContain('divano');
    const chips = reviewer.getByRole('group', { name: 'Your translation' }).getByRole('button');
    expect(await chips.allTextContents()).toEqual(['{name}', '<b>', '</b>']);
    expect(await reviewer.getByTestId('lease-left').textContent()).toMatch(/^1[45]:\d\d left$/);
    expect(await reviewer.getByText('divano (for \u201csofa\u201d): 1 of 1').isVisible()).toBe(true);
    await inspectPage(reviewer, 'review-task');

    const warning = reviewer.getByRole('alert').filter({ hasText: 'Your lease on this task ends in under 60 seconds' });
    await reviewer.clock.fastForward('14:10');
    await expect.poll(() => warning.count(), SOON).toBe(1);
    await inspectPage(reviewer, 'review-lease-warning');
    await reviewer.clock.setSystemTime(new Date());
    await expect.poll(() => warning.count(), SOON).toBe(0);

    await reviewer.getByRole('button', { name: 'Renew lease' }).click();
    await expect.poll(() => reviewer.getByRole('status').filter({ hasText: 'Lease renewed until' }).count(), SOON).toBe(1);
  });

  it('refuses to drop a variable, in the chip editor and as plain text, without sending anything', async () => {
    const sent: string[] = [];
    reviewer.on('request', (request) => {
      if (request.method() === 'POST' && request.url().includes('/edit')) sent.push(request.url());
    });
    // Backspace at the start of the text after {name} would delete it in a plain editor.
    await reviewer.getByRole('textbox', { name: 'Text 2 of 4' }).focus();
    await reviewer.keyboard.press('Home');
    await reviewer.keyboard.press('Backspace');
    await expect.poll(() => reviewer.getByRole('alert').first().textContent(), SOON).toContain('The variable {name} cannot be removed');
    expect(await reviewer.getByRole('group', { name: 'Your translation' }).getByRole('button').allTextContents()).toEqual(['{name}', '<b>', '</b>']);

    await reviewer.getByLabel('Edit as plain text').check();
    const plain = reviewer.getByRole('textbox', { name: 'Translation as plain text' });
    await plain.fill((await plain.inputValue()).replace('{name}', ''));
    await reviewer.keyboard.press('Control+s');
    await expect.poll(() => reviewer.getByRole('alert').first().textContent(), SOON).toContain('Not sent. The edit must keep the variables, markup and glossary terms of the machine translation: variable {name} is missing');
    await inspectPage(reviewer, 'review-refused');
    expect(sent).toEqual([]);
    await reviewer.getByRole('button', { name: 'Undo my changes' }).click();
  });

  it('saves the reviewer\u2019s edit with Ctrl+S, and the customer gets it as the job\u2019s result', async () => {
    const task = await heldTask(reviewer);
    expect(task.job).toBe(job);
    const last = reviewer.getByRole('textbox', { name: 'Text 4 of 4' });
    await last.fill((await last.inputValue()) + ADDED);
    await reviewer.keyboard.press('Control+s');
    const saved = reviewer.getByRole('status').filter({ hasText: 'Edit saved' });
    await expect.poll(() => saved.count(), SOON).toBe(1);
    // "Here is your next task" only with a next task on screen; otherwise it says there is none.
    await expect.poll(() => saved.textContent(), SOON).toMatch(/^Edit saved\. (Here is your next task\.|That was the last open task in Italian for now\.)$/);
    const noneOpen = await reviewer.getByText('No open tasks in Italian right now.').isVisible();
    expect((await saved.textContent())!.includes('Here is your next task')).toBe(!noneOpen);

    const done = await finishedJob(liveKey, job);
    expect(done.results).toEqual([expect.objectContaining({ index: 0, translation: task.machine_translation + ADDED })]);
    expect(done.results[0].translation).toContain('{name}');
  });

  it('goes back to the answered task with K and shows the edit', async () => {
    await reviewer.locator('body').click({ position: { x: 5, y: 5 } });
    await reviewer.keyboard.press('k');
    await expect.poll(() => reviewer.getByRole('heading', { level: 3, name: /^Answered .*: edited$/ }).isVisible(), SOON).toBe(true);
    expect(reviewer.url()).toMatch(/task=/);
    await inspectPage(reviewer, 'review-history');
    await reviewer.keyboard.press('j');
    await expect.poll(() => reviewer.url(), SOON).not.toMatch(/task=/);
  });
});
