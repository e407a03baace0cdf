import { randomUUID } from 'node:crypto';
import type { Browser, Page } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { runAdmin } from '../admin.command';
import { stack } from '../stack.config';
import { expectAcceptedJob, translate, translationApi } from '../translation.client';
import { acceptInvitation, awaitReviewTask, consolePage, heading, inspectPage, launchChromium, operatorAccount } from './console-browser';

const LANGUAGE = 'es';
const SOURCE = 'Open Notion on Windows to sync your notes.';
const NOTES = 'Product names stay in English. Address the reader as tú.';
const SOON = { timeout: 10_000 };
/** Admin commands, each a start of a built app, before the job is submitted. */
const SETUP_MS = 240_000;

describe("style profiles in the console: a customer's brand rules, and what its reviewers see of them", () => {
  let browser: Browser;
  let owner: Page;
  let reviewer: Page;
  let liveKey: string;
  let job: string;

  beforeAll(async () => {
    browser = await launchChromium();
    [owner, reviewer] = await Promise.all([consolePage(browser), consolePage(browser)]);
  });
  afterAll(() => browser?.close());

  it('lets the owner create a profile with do-not-translate terms and notes on the Style page', async () => {
    const account = await operatorAccount({ sandbox: false });
    liveKey = await runAdmin(stack.translateAdmin, ['key:create', '--account', account.name]);
    const link = await runAdmin(stack.consoleAdmin, ['user:invite', '--account', account.name, '--email', `reviewer-${randomUUID().slice(0, 8)}@example.eu`, '--role', 'reviewer', '--languages', LANGUAGE]);
    await Promise.all([acceptInvitation(owner, account.invitationLink), acceptInvitation(reviewer, link)]);

    await owner.getByRole('navigation', { name: 'Console sections' }).getByRole('link', { name: 'Style' }).click();
    await expect.poll(() => heading(owner)).toBe('Style profiles');
    await owner.getByLabel('Name', { exact: true }).fill('Brand');
    await owner.getByLabel('Do-not-translate terms, exactly as written').fill('Notion\nWindows');
    await owner.getByLabel('Notes for reviewers').fill(NOTES);
    await owner.getByRole('button', { name: 'Create', exact: true }).click();
    await owner.getByRole('status').filter({ hasText: 'The style profile “Brand” was created.' }).waitFor();
    await expect.poll(() => owner.getByRole('row', { name: /Brand/ }).count(), SOON).toBe(1);
    await inspectPage(owner, 'style-profiles', { moderate: true });

    // The API of the account's live key sees the same profile.
    const listed = await translationApi('GET', '/style-profiles', liveKey);
    const profile = listed.body.style_profiles.find((candidate: { name: string }) => candidate.name === 'Brand');
    expect(profile).toMatchObject({ do_not_translate: [{ term: 'Notion', case_sensitive: true }, { term: 'Windows', case_sensitive: true }], notes: NOTES });
    job = expectAcceptedJob(await translate(liveKey, { source: 'en', target: LANGUAGE, tier: 'review', texts: [SOURCE], style_profile: profile.id }));
  }, SETUP_MS);

  it("shows the reviewer the profile's notes and its terms as chips that cannot be deleted", async () => {
    await awaitReviewTask(reviewer, job);

    const style = reviewer.getByRole('complementary', { name: 'Style profile “Brand”' });
    expect(await style.textContent()).toContain(NOTES);
    expect(await style.textContent()).toMatch(/Notion.*Windows/);
    const editor = reviewer.getByRole('group', { name: 'Your translation' });
    const chips = await editor.getByRole('button').allTextContents();
    expect(chips).toEqual(expect.arrayContaining(['Notion', 'Windows']));

    const notion = editor.getByRole('button', { name: /do-not-translate term Notion/ });
    await notion.focus();
    await reviewer.keyboard.press('Delete');
    await expect.poll(() => reviewer.getByRole('alert').first().textContent(), SOON).toContain('The do-not-translate term Notion cannot be removed');
    expect(await editor.getByRole('button').allTextContents()).toEqual(chips);
    await inspectPage(reviewer, 'review-style-notes', { moderate: true });
  });
});
