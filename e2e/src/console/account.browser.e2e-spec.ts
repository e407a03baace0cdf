import { runCommand } from '@platform/testing';
import { gzipSync } from 'node:zlib';
import type { Browser, Page } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { runAdmin } from '../admin.command';
import { stack } from '../stack.config';
import {
  acceptInvitation,
  accessibleDescription,
  consolePage,
  consolePath,
  focused,
  heading,
  inspectPage,
  launchChromium,
  modeSwitch,
  operatorAccount,
  PASSWORD,
  switchMode,
  takeSecret,
  type OperatorAccount,
} from './console-browser';

async function translateWith(key: string, text: string) {
  const response = await fetch(`${stack.translateUrl}/api/v1/translate`, {
    method: 'POST',
    headers: { authorization: `Bearer ${key}`, 'content-type': 'application/json' },
    body: JSON.stringify({ source: 'en', target: 'es', texts: [text] }),
  });
  return { status: response.status, body: (await response.json()) as { translations?: string[] } };
}

/** A key of the mode the header's switch is on. */
async function createKey(page: Page, name: string, inspect?: string): Promise<string> {
  await page.getByLabel('Name', { exact: true }).fill(name);
  await page.getByRole('button', { name: 'Create key' }).click();
  return takeSecret(page, `Key “${name}” created`, { inspect });
}

describe('the console in a browser: an account from invitation to live key', () => {
  let browser: Browser;
  let page: Page;
  let account: OperatorAccount;
  const secrets: string[] = [];

  beforeAll(async () => {
    browser = await launchChromium();
    page = await consolePage(browser);
    account = await operatorAccount({ sandbox: true });
  });
  afterAll(() => browser?.close());

  it('signs the owner in from the invitation link, lands on the overview and opens the keys', async () => {
    await acceptInvitation(page, account.invitationLink, { inspect: 'accept-invitation' });
    await expect.poll(() => heading(page)).toBe('Overview');
    expect(page.url()).toMatch(/\/console\/overview/);
    await page.getByRole('link', { name: 'API keys' }).click();
    await expect.poll(() => heading(page)).toBe('API keys');
    const cookie = (await page.context().cookies()).find((c) => c.name === 'console_session');
    expect(cookie).toMatchObject({ httpOnly: true, sameSite: 'Lax', path: '/console' });
    await inspectPage(page, 'keys', { moderate: true });
  });

  it('creates a sandbox key, shows it once, and the key translates', async () => {
    expect(await page.getByText('A sandbox key (free, test data only)').isVisible()).toBe(true);
    const secret = await createKey(page, 'browser sandbox', 'key-created');
    secrets.push(secret);
    expect(secret).toMatch(/^svc_test_/);
    const translated = await translateWith(secret, 'The cat is sleeping.');
    expect(translated.status).toBe(200);
    expect(translated.body.translations?.[0]).toMatch(/gato/i);
  });

  it('keeps the console in the sandbox until the account is activated, and says why', async () => {
    const toggle = modeSwitch(page);
    expect(await toggle.getAttribute('aria-checked')).toBe('true');
    expect(await toggle.getAttribute('aria-disabled')).toBe('true');
    expect(await accessibleDescription(page, '[role="switch"]')).toBe('Live opens once the account is activated: Account page');
    // aria-disabled keeps it reachable by keyboard, so a key press must change nothing either.
    await toggle.focus();
    await page.keyboard.press('Space');
    expect(await toggle.getAttribute('aria-checked')).toBe('true');
    expect(await page.getByTestId('sandbox-band').textContent()).toContain('Test data — sandbox.');
  });

  it('requests production access, an operator approves it by CLI, and a live key is created', async () => {
    await page.getByRole('navigation', { name: 'Console sections' }).getByRole('link', { name: 'Account' }).click();
    await expect.poll(() => heading(page)).toBe('Account');
    await inspectPage(page, 'account');
    await page.getByLabel('Company').fill('Beispiel GmbH');
    await page.getByLabel('Intended use').fill('Our shop catalogue into Spanish');
    // A number not in its country's format is explained under the field, before anything is sent.
    const vat = page.getByLabel('EU VAT identification number');
    await vat.fill('DE12345');
    await page.getByRole('button', { name: 'Request production access' }).click();
    await expect.poll(() => vat.getAttribute('aria-invalid')).toBe('true');
    expect(await accessibleDescription(page, 'input[aria-invalid="true"]')).toContain(
      'The VAT number does not have the format of DE numbers: DE followed by 9 digits, e.g. DE123456789',
    );
    await inspectPage(page, 'activation-vat-refused', { moderate: true });
    await vat.fill('DE 123 456 789');
    await page.getByRole('button', { name: 'Request production access' }).click();
    await expect.poll(() => page.getByTestId('activation-state').textContent()).toBe('Requested, waiting for approval');

    const pending = await runCommand('/bin/sh', ['-c', `${stack.consoleAdmin} account:pending`], { cwd: process.cwd(), env: process.env });
    expect(pending.stdout).toContain(account.name);
    await runAdmin(stack.consoleAdmin, ['account:activate', account.name]);

    // The open page follows the operator's decision, without a reload.
    await expect.poll(() => page.getByTestId('activation-state').textContent(), { timeout: 20_000 }).toBe('Active: live keys can be created');
    await page.getByRole('link', { name: 'API keys' }).click();
    // An activated account opens on live unless its user chose otherwise.
    await expect.poll(() => modeSwitch(page).getAttribute('aria-disabled')).toBe(null);
    expect(await modeSwitch(page).getAttribute('aria-checked')).toBe('false');
    expect(await page.getByTestId('sandbox-band').count()).toBe(0);
    await expect.poll(() => page.getByRole('heading', { name: 'Live keys' }).isVisible()).toBe(true);
    expect(await page.getByRole('row', { name: /browser sandbox/ }).count()).toBe(0);
    const live = await createKey(page, 'browser live');
    secrets.push(live);
    expect(live).toMatch(/^svc_live_/);
    expect((await translateWith(live, 'The house is red.')).status).toBe(200);
  });

  it('never shows a secret again: not after a reload, not in any session API answer', async () => {
    expect(secrets).toHaveLength(2);
    const answers: string[] = [];
    page.on('response', (response) => {
      if (response.url().includes('/console/api/')) void response.text().then((text) => answers.push(text), () => undefined);
    });
    await page.reload();
    await expect.poll(() => page.getByRole('heading', { name: 'Live keys' }).isVisible()).toBe(true);
    await page.waitForLoadState('networkidle');
    const html = await page.content();
    for (const secret of secrets) {
      expect(html).not.toContain(secret);
      expect(answers.join('\n')).not.toContain(secret);
    }
    expect(answers.length).toBeGreaterThan(0);
  });

  it('revokes a key only after confirmation', async () => {
    await switchMode(page, 'sandbox');
    await expect.poll(() => page.getByRole('heading', { name: 'Sandbox keys' }).isVisible()).toBe(true);
    const row = page.getByRole('row', { name: /browser sandbox/ });
    // Each button says which key it is about.
    const names = await row.getByRole('button').evaluateAll((buttons) => buttons.map((button) => button.getAttribute('aria-label')));
    expect(names).toEqual(['Limits of key browser sandbox', 'Regenerate key browser sandbox', 'Revoke key browser sandbox']);
    await row.getByRole('button', { name: 'Revoke key browser sandbox' }).click();
    const dialog = page.getByRole('dialog');
    await inspectPage(page, 'key-revoke-confirm');
    await dialog.getByRole('button', { name: 'Cancel' }).click();
    await expect.poll(() => row.getByRole('cell', { name: 'active' }).isVisible()).toBe(true);
    await row.getByRole('button', { name: 'Revoke' }).click();
    await page.getByRole('dialog').getByRole('button', { name: 'Revoke' }).click();
    await expect.poll(() => row.getByRole('cell', { name: 'revoked' }).isVisible()).toBe(true);
    expect((await translateWith(secrets[0], 'The dog.')).status).toBe(401);
  });

  it('works by keyboard alone: skip link, forms submitted with Enter, dialogs that start on Cancel and close with Escape', async () => {
    await page.goto('/console/keys');
    await expect.poll(() => heading(page)).toBe('API keys');
    await page.keyboard.press('Tab');
    expect((await focused(page)).textContent).toBe('Skip to content');
    await page.keyboard.press('Enter');
    expect((await focused(page)).id).toBe('main');

    const name = page.getByLabel('Name', { exact: true });
    await name.focus();
    await page.keyboard.type('typed by keyboard');
    await page.keyboard.press('Enter');
    // The secret's dialog takes the focus; Escape closes it and the focus is back in the emptied form.
    await page.getByRole('dialog', { name: 'Key “typed by keyboard” created' }).waitFor();
    await expect.poll(async () => (await focused(page)).textContent).toBe('Copy');
    await page.keyboard.press('Escape');
    await expect.poll(() => page.getByRole('dialog').count()).toBe(0);
    expect(await name.evaluate((input) => input === (input.ownerDocument as unknown as { activeElement: unknown }).activeElement)).toBe(true);
    expect(await name.inputValue()).toBe('');
    const row = page.getByRole('row', { name: /typed by keyboard/ });
    await row.getByRole('button', { name: 'Regenerate' }).focus();
    await page.keyboard.press('Enter');
    expect((await focused(page)).textContent).toBe('Cancel');
    await page.keyboard.press('Escape');
    await expect.poll(() => page.getByRole('dialog').count()).toBe(0);
    await row.getByRole('button', { name: 'Revoke' }).focus();
    await page.keyboard.press('Enter');
    await page.keyboard.press('Tab');
    await page.keyboard.press('Enter');
    await expect.poll(() => row.getByRole('cell', { name: 'revoked' }).isVisible()).toBe(true);
  });

  it('lets the owner invite a member, who sees no user management', async () => {
    await page.getByRole('link', { name: 'Users' }).click();
    await expect.poll(() => heading(page)).toBe('Users');
    const email = `member-${Date.now()}@example.eu`;
    await page.getByLabel('Email address').fill(email);
    await page.getByRole('button', { name: 'Invite' }).click();
    const link = await takeSecret(page, `Invitation link for ${email}`, { inspect: 'invitation-link' });
    expect(await page.getByLabel('Email address').inputValue()).toBe('');
    await inspectPage(page, 'users');

    const member = await consolePage(browser);
    await acceptInvitation(member, link);
    const sections = await member.getByRole('navigation', { name: 'Console sections' }).getByRole('link').allTextContents();
    expect(sections).not.toContain('Users');
    // A page the role cannot use says so, rather than sending the member elsewhere without a word.
    await member.goto('/console/users');
    await expect.poll(() => heading(member)).toBe('No access to this page');
    expect(member.url()).toMatch(/\/console\/users$/);
    expect(await member.getByText('Your role (member) cannot use this page.').isVisible()).toBe(true);
    await inspectPage(member, 'no-access', { moderate: true });
    await member.getByRole('link', { name: 'Back to the console' }).click();
    await expect.poll(() => heading(member)).toBe('Overview');

    // The owner makes the member a reviewer, after confirming; the member's open session follows.
    await page.reload();
    const role = page.getByLabel(`Role of ${email}`);
    await role.selectOption('reviewer');
    await page.getByRole('dialog').getByRole('button', { name: 'Change role' }).click();
    await expect.poll(() => role.inputValue()).toBe('reviewer');
    await member.reload();
    await expect.poll(async () => member.getByRole('navigation', { name: 'Console sections' }).getByRole('link').allTextContents()).not.toContain('API keys');
    await member.context().close();
  });

  it('signs out, refuses a wrong password with the API message, and signs in again', async () => {
    await page.getByRole('button', { name: 'Sign out' }).click();
    await expect.poll(() => heading(page)).toBe('Sign in');
    expect(await page.getByTestId('session-ended').textContent()).toBe('You have signed out.');
    await inspectPage(page, 'sign-in');
    await page.getByLabel('Email address').fill(account.ownerEmail);
    await page.getByLabel('Password').fill('not the password');
    await page.getByRole('button', { name: 'Sign in' }).click();
    await expect.poll(() => page.getByRole('alert').textContent()).toBe('Wrong email address or passwordCheck the address and the password (capital letters count), then try again.');
    await page.getByLabel('Password').fill(PASSWORD);
    await page.getByRole('button', { name: 'Sign in' }).click();
    // Back on the page the owner signed out from.
    await expect.poll(() => heading(page)).toBe('Users');
  });

  it('warns from the 15th wrong password, locks sign-in after 20 and says for how long', async () => {
    const other = await operatorAccount({ sandbox: true });
    const stranger = await consolePage(browser);
    await stranger.goto(consolePath(`${stack.consoleUrl}/console/sign-in`));
    for (let i = 0; i < 14; i++) {
      await stranger.request.post('/console/api/session', { data: { email: other.ownerEmail, password: `wrong ${i}` } });
    }
    // The 15th wrong password is warned of the lock to come.
    await stranger.getByLabel('Email address').fill(other.ownerEmail);
    await stranger.getByLabel('Password').fill('wrong 14');
    await stranger.getByRole('button', { name: 'Sign in' }).click();
    await expect
      .poll(() => stranger.getByRole('alert').textContent())
      .toContain('Wrong email address or password. After 5 more wrong passwords, sign-in to this account is locked for up to 15 minutes');
    await inspectPage(stranger, 'sign-in-warning', { moderate: true });
    for (let i = 15; i < 20; i++) {
      await stranger.request.post('/console/api/session', { data: { email: other.ownerEmail, password: `wrong ${i}` } });
    }
    await stranger.getByLabel('Password').fill(PASSWORD);
    await stranger.getByRole('button', { name: 'Sign in' }).click();
    await expect.poll(() => stranger.getByRole('alert').textContent()).toContain('Sign-in is locked for this account after 20 wrong passwords; try again in');
    await stranger.context().close();
  });

  it('loads the first page with less than 200 KB of gzipped JavaScript', async () => {
    const visitor = await consolePage(browser);
    const scripts: Promise<number>[] = [];
    const headers: Record<string, string>[] = [];
    visitor.on('response', (response) => {
      if (response.request().resourceType() !== 'script' && response.request().resourceType() !== 'stylesheet') return;
      headers.push(response.headers());
      if (response.request().resourceType() === 'script') scripts.push(response.body().then((body) => gzipSync(body).length));
    });
    await visitor.goto('/console/sign-in');
    await expect.poll(() => heading(visitor)).toBe('Sign in');
    const sizes = await Promise.all(scripts);
    expect(sizes.length).toBeGreaterThan(0);
    expect(sizes.reduce((sum, size) => sum + size, 0)).toBeLessThan(200 * 1024);
    // Sent compressed (Chromium accepts brotli), and kept for a year: the names change with the content.
    for (const header of headers) expect(header).toMatchObject({ 'content-encoding': 'br', 'cache-control': 'public, max-age=31536000, immutable', vary: 'Accept-Encoding' });
    await visitor.context().close();
  });

  it('shows the sign-up page and any page it does not know', async () => {
    const visitor = await consolePage(browser);
    await visitor.goto('/console/sign-up');
    await expect.poll(() => heading(visitor)).toBe('Create an account');
    await inspectPage(visitor, 'sign-up');
    await visitor.context().close();
    await page.goto('/console/no-such-page');
    await expect.poll(() => heading(page)).toBe('There is no page here.');
  });
});
