import type { Browser, Page } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { translationApi } from '../translation.client';
import { acceptInvitation, accessibleDescription, consolePage, focused, heading, inspectPage, launchChromium, operatorAccount, PASSWORD, takeSecret, type OperatorAccount } from './console-browser';

interface KeyRow {
  name: string | null;
}

/** The account's keys as the session API lists them (the page's cookie rides along). */
const keysNamed = async (page: Page, name: string) => ((await (await page.request.get('/console/api/keys')).json()).keys as KeyRow[]).filter((key) => key.name === name);

const selection = (page: Page) => page.evaluate(() => (globalThis as unknown as { getSelection(): { toString(): string } }).getSelection().toString());

describe('the console in a browser: secrets shown once, in a dialog that tells the truth', () => {
  let browser: Browser;
  let page: Page;
  let account: OperatorAccount;

  beforeAll(async () => {
    browser = await launchChromium();
    page = await consolePage(browser);
    account = await operatorAccount({ sandbox: true });
  });
  afterAll(() => browser?.close());

  it('asks for a name beside the field and creates nothing without one', async () => {
    await acceptInvitation(page, account.invitationLink);
    await page.getByRole('navigation', { name: 'Console sections' }).getByRole('link', { name: 'API keys' }).click();
    await expect.poll(() => heading(page)).toBe('API keys');
    const name = page.getByLabel('Name', { exact: true });
    await name.fill('   ');
    await page.getByRole('button', { name: 'Create key' }).click();
    await expect.poll(() => name.getAttribute('aria-invalid')).toBe('true');
    expect(await accessibleDescription(page, 'input[name="name"]')).toContain('Give the key a name, e.g. “staging server”.');
    await inspectPage(page, 'key-name-missing', { moderate: true });
    expect(await page.getByRole('dialog').count()).toBe(0);
    expect(((await (await page.request.get('/console/api/keys')).json()).keys as KeyRow[]).length).toBe(0);
  });

  it('shows the new key in a focused dialog, copies it for real, and empties the form', async () => {
    const name = page.getByLabel('Name', { exact: true });
    await name.fill('Production');
    await name.press('Enter');
    const dialog = page.getByRole('dialog', { name: 'Key “Production” created' });
    await dialog.waitFor();
    await expect.poll(async () => (await focused(page)).textContent).toBe('Copy');
    expect(await accessibleDescription(page, 'dialog[open]')).toMatch(/^This is the only time it is shown: copy it now/);
    const secret = (await dialog.getByTestId('secret').textContent())!.trim();
    expect(secret).toMatch(/^svc_test_/);
    // Whole on a phone's screen too: the dialog is in view, not below the form.
    await page.setViewportSize({ width: 375, height: 812 });
    const box = (await dialog.boundingBox())!;
    expect(box.x).toBeGreaterThanOrEqual(0);
    expect(box.x + box.width).toBeLessThanOrEqual(375);
    await page.setViewportSize({ width: 1280, height: 800 });
    await inspectPage(page, 'key-secret-dialog', { moderate: true });

    await dialog.getByRole('button', { name: 'Copy' }).click();
    await dialog.getByRole('button', { name: 'Copied' }).waitFor();
    expect(await dialog.getByRole('status').textContent()).toBe('Copied to the clipboard.');
    expect(await page.evaluate(() => (globalThis as unknown as { navigator: { clipboard: { readText(): Promise<string> } } }).navigator.clipboard.readText())).toBe(secret);
    await inspectPage(page, 'key-secret-copied', { moderate: true });

    await dialog.getByRole('button', { name: 'Done' }).click();
    await expect.poll(() => page.getByRole('dialog').count()).toBe(0);
    expect(await name.inputValue()).toBe('');
    expect((await focused(page)).tag).toBe('input');
    expect(await page.getByRole('row', { name: /Production/ }).count()).toBe(1);
    expect(await page.content()).not.toContain(secret);
  });

  it('creates one key however fast the button is clicked twice', async () => {
    await page.getByLabel('Name', { exact: true }).fill('Clicked twice');
    await page.getByRole('button', { name: 'Create key' }).dblclick();
    await takeSecret(page, 'Key “Clicked twice” created');
    expect(await keysNamed(page, 'Clicked twice')).toHaveLength(1);
  });

  it('says so when the browser refuses to copy, and selects the secret for copying by hand', async () => {
    const context = await browser.newContext({ baseURL: new URL(page.url()).origin, viewport: { width: 1280, height: 800 } });
    // A browser whose clipboard refuses, as one without permission or outside HTTPS does.
    await context.addInitScript(() => {
      const nav = (globalThis as unknown as { navigator: { clipboard: { writeText: () => Promise<void> } } }).navigator;
      nav.clipboard.writeText = () => Promise.reject(new Error('NotAllowedError'));
    });
    const refusing = await context.newPage();
    await refusing.goto('/console/sign-in?next=/keys');
    await refusing.getByLabel('Email address').fill(account.ownerEmail);
    await refusing.getByLabel('Password').fill(PASSWORD);
    await refusing.getByRole('button', { name: 'Sign in' }).click();
    await expect.poll(() => heading(refusing)).toBe('API keys');

    await refusing.getByLabel('Name', { exact: true }).fill('No clipboard');
    await refusing.getByRole('button', { name: 'Create key' }).click();
    const dialog = refusing.getByRole('dialog', { name: 'Key “No clipboard” created' });
    await dialog.getByRole('button', { name: 'Copy' }).click();
    const failure = dialog.getByRole('alert');
    await expect.poll(() => failure.textContent()).toContain('Copying failed');
    expect(await failure.textContent()).toContain('The text is selected: press Ctrl+C');
    expect(await dialog.getByRole('button', { name: 'Copied' }).count()).toBe(0);
    expect(await selection(refusing)).toBe((await dialog.getByTestId('secret').textContent())!.trim());
    await inspectPage(refusing, 'key-secret-copy-failed', { moderate: true });
    await context.close();
  });

  let regenerated: string;

  it('shows a regenerated secret in the same dialog, named after its key', async () => {
    await page.reload();
    const row = page.getByRole('row', { name: /Production/ });
    await row.getByRole('button', { name: 'Regenerate' }).click();
    await page.getByRole('dialog').getByRole('button', { name: 'Regenerate' }).click();
    regenerated = await takeSecret(page, 'New secret of “Production”', { inspect: 'key-regenerated-dialog' });
    expect(regenerated).toMatch(/^svc_test_/);
  });

  it('rolls a key: the secret it replaces keeps working for the chosen window, shown on the key with its last use', async () => {
    const works = async (secret: string) => (await translationApi('POST', '/translate', secret, { json: { source: 'en', target: 'es', texts: ['Save'] } })).status === 200;
    expect(await works(regenerated)).toBe(true);
    const row = page.getByRole('row', { name: /Production/ });
    await row.getByRole('button', { name: 'Regenerate' }).click();
    const dialog = page.getByRole('dialog', { name: 'Regenerate “Production”' });
    // It opens on Cancel; the window is a choice, none unless chosen.
    await expect.poll(async () => (await focused(page)).textContent).toBe('Cancel');
    await dialog.getByLabel('For 24 hours').check();
    await inspectPage(page, 'key-roll-dialog', { moderate: true });
    await dialog.getByRole('button', { name: 'Regenerate' }).click();
    const rolled = await takeSecret(page, 'New secret of “Production”');
    await expect.poll(() => row.textContent()).toMatch(/previous secret works until/);
    // Used by the translation above: the list, fetched again after the regeneration, says when.
    expect(await row.textContent()).not.toContain('never');
    expect([await works(regenerated), await works(rolled)]).toEqual([true, true]);
  });
});
