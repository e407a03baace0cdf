import type { Browser, Page } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { runAdmin } from '../admin.command';
import { stack } from '../stack.config';
import { acceptInvitation, consolePage, focused, heading, inspectPage, launchChromium, modeSwitch, operatorAccount, switchMode, takeSecret, type OperatorAccount } from './console-browser';

/** A section of the console by its menu entry, once its page has loaded. */
async function open(page: Page, section: string, title = section): Promise<void> {
  await page.getByRole('navigation', { name: 'Console sections' }).getByRole('link', { name: section }).click();
  await expect.poll(() => heading(page)).toBe(title);
}

async function createKey(page: Page, name: string): Promise<void> {
  await page.getByLabel('Name', { exact: true }).fill(name);
  await page.getByRole('button', { name: 'Create key' }).click();
  await takeSecret(page, `Key “${name}” created`);
}

/** The names in the keys table of the page, once it shows the mode's heading. */
async function keysShown(page: Page, title: 'Live keys' | 'Sandbox keys'): Promise<string[]> {
  await page.getByRole('heading', { name: title }).waitFor();
  return page.getByRole('row').locator('td:first-child').allTextContents();
}

describe("the console in a browser: the header's switch between sandbox and live", () => {
  let browser: Browser;
  let page: Page;
  let account: OperatorAccount;

  beforeAll(async () => {
    browser = await launchChromium();
    page = await consolePage(browser);
    // Activated: both modes are open to it.
    account = await operatorAccount({ sandbox: false });
  });
  afterAll(() => browser?.close());

  it('starts an activated account on live, and the keys page shows and creates keys of the mode the switch is on', async () => {
    await acceptInvitation(page, account.invitationLink);
    const toggle = modeSwitch(page);
    expect(await toggle.getAttribute('aria-checked')).toBe('false');
    expect(await page.getByTestId('sandbox-band').count()).toBe(0);
    await open(page, 'API keys');
    await createKey(page, 'the live one');
    expect(await keysShown(page, 'Live keys')).toEqual(['the live one']);

    await switchMode(page, 'sandbox');
    expect(await keysShown(page, 'Sandbox keys')).toEqual([]);
    expect(await page.getByTestId('sandbox-band').textContent()).toBe('Test data — sandbox. Free keys and their data: nothing here is live or billed.');
    await createKey(page, 'the sandbox one');
    expect(await keysShown(page, 'Sandbox keys')).toEqual(['the sandbox one']);
    await inspectPage(page, 'mode-sandbox-keys', { moderate: true });

    await switchMode(page, 'live');
    expect(await keysShown(page, 'Live keys')).toEqual(['the live one']);
    await inspectPage(page, 'mode-live-keys', { moderate: true });
  });

  it('shows the usage of the mode: costs in live, the free quota in the sandbox', async () => {
    await open(page, 'Overview');
    // The table of each key's words scrolls in a region of its own name.
    const keysOfUsage = page.getByRole('region', { name: 'Words of each key' });
    await expect.poll(() => keysOfUsage.getByRole('rowheader').allTextContents()).toEqual([expect.stringMatching(/^the live one \(/)]);
    expect(await page.getByRole('term').filter({ hasText: 'Cost' }).count()).toBe(1);
    expect(await page.getByTestId('usage-quota').count()).toBe(0);

    await switchMode(page, 'sandbox');
    await expect.poll(() => keysOfUsage.getByRole('rowheader').allTextContents()).toEqual([expect.stringMatching(/^the sandbox one \(/)]);
    expect(await page.getByTestId('usage-quota').textContent()).toMatch(/words a month$/);
    expect(await page.getByRole('term').filter({ hasText: 'Cost' }).count()).toBe(0);
    await inspectPage(page, 'mode-sandbox-overview', { moderate: true });
  });

  it('is a switch for the keyboard and screen readers: named, focus visible, toggled with Space', async () => {
    const toggle = modeSwitch(page);
    // Reached by Tab from the last section of the menu, so the focus ring is the keyboard's.
    await page.getByRole('navigation', { name: 'Console sections' }).getByRole('link', { name: 'Account' }).focus();
    await page.keyboard.press('Tab');
    expect(await focused(page)).toMatchObject({ tag: 'button', textContent: 'Sandbox' });
    expect(await toggle.evaluate((element) => (globalThis as unknown as { getComputedStyle(e: unknown): { outlineStyle: string } }).getComputedStyle(element).outlineStyle)).toBe('solid');
    const before = await toggle.getAttribute('aria-checked');
    await page.keyboard.press('Space');
    await expect.poll(() => toggle.getAttribute('aria-checked')).toBe(before === 'true' ? 'false' : 'true');
    await page.keyboard.press('Space');
    await expect.poll(() => toggle.getAttribute('aria-checked')).toBe(before);
  });

  it('keeps the choice across a reload, and every open tab follows a change', async () => {
    await switchMode(page, 'sandbox');
    await page.reload();
    await page.getByRole('navigation', { name: 'Console sections' }).waitFor();
    expect(await modeSwitch(page).getAttribute('aria-checked')).toBe('true');
    await expect.poll(() => page.getByTestId('usage-quota').isVisible()).toBe(true);

    const second = await page.context().newPage();
    await second.goto('/console/keys');
    expect(await keysShown(second, 'Sandbox keys')).toEqual(['the sandbox one']);
    await switchMode(page, 'live');
    await expect.poll(() => modeSwitch(second).getAttribute('aria-checked')).toBe('false');
    expect(await keysShown(second, 'Live keys')).toEqual(['the live one']);
    expect(await second.getByTestId('sandbox-band').count()).toBe(0);
    await switchMode(second, 'sandbox');
    await expect.poll(() => page.getByTestId('usage-quota').isVisible()).toBe(true);
    await second.close();
  });

  it('leaves a glossary of one mode for the list of the other when the mode changes', async () => {
    await switchMode(page, 'sandbox');
    await open(page, 'Glossaries');
    await page.getByLabel('Name', { exact: true }).fill('Sandbox terms');
    await page.getByLabel('Source language').fill('en');
    await page.getByLabel('CSV file').setInputFiles({ name: 'terms.csv', mimeType: 'text/csv', buffer: Buffer.from('term,es\ncat,gato\n') });
    await page.getByRole('button', { name: 'Upload', exact: true }).click();
    await page.getByRole('link', { name: 'Sandbox terms', exact: true }).click();
    await expect.poll(() => heading(page)).toBe('Sandbox terms');
    await switchMode(page, 'live');
    await expect.poll(() => new URL(page.url()).pathname).toBe('/console/glossaries');
    await page.getByText('No glossaries in this mode yet.').waitFor();
    await switchMode(page, 'sandbox');
    await page.getByRole('link', { name: 'Sandbox terms', exact: true }).waitFor();
  });

  it("does not hand one user's choice to the next one signing in on the same browser, and shows reviewers no switch", async () => {
    const memberEmail = `member-${Date.now()}@example.eu`;
    const memberLink = await runAdmin(stack.consoleAdmin, ['user:invite', '--account', account.name, '--email', memberEmail, '--role', 'member']);
    await page.getByRole('button', { name: 'Sign out' }).click();
    await expect.poll(() => heading(page)).toBe('Sign in');
    await acceptInvitation(page, memberLink);
    // The owner left it on the sandbox; the member starts where an activated account starts.
    expect(await modeSwitch(page).getAttribute('aria-checked')).toBe('false');

    const reviewerLink = await runAdmin(stack.consoleAdmin, ['user:invite', '--account', account.name, '--email', `reviewer-${Date.now()}@example.eu`, '--role', 'reviewer', '--languages', 'es']);
    const reviewer = await consolePage(browser);
    await acceptInvitation(reviewer, reviewerLink);
    expect(await reviewer.getByRole('switch').count()).toBe(0);
    expect(await reviewer.getByTestId('sandbox-band').count()).toBe(0);
    await reviewer.context().close();
  });
});
