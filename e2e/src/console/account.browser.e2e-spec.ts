import { runCommand } from '@platform/testing';
import { gzipSync } from 'node:zlib';
import type { Browser, Page } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { runAdmin } from '../admin.command';
import { stack } from '../stack.config';
import { acceptInvitation, consolePage, consolePath, heading, inspectPage, launchChromium, operatorAccount, PASSWORD, type OperatorAccount } from './console-browser';

async function translateWith(key: string, text: string) {
  const response = await fetch(`${stack.translateUrl}/api/v1/translate`, {
    method: 'POST',
    headers: { authorization: `Bearer ${key}`, 'content-type': 'application/json' },
    body: JSON.stringify({ source: 'en', target: 'es', texts: [text] }),
  });
  return { status: response.status, body: (await response.json()) as { translations?: string[] } };
}

async function createKey(page: Page, name: string, kind: 'Sandbox' | 'Live'): Promise<string> {
  await page.getByLabel('Name', { exact: true }).fill(name);
  await page.getByRole('radio', { name: new RegExp(kind) }).check();
  await page.getByRole('button', { name: 'Create key' }).click();
  const secret = page.getByTestId('secret');
  await secret.waitFor();
  return (await secret.textContent())!.trim();
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
    await inspectPage(page, 'keys');
  });

  it('creates a sandbox key, shows it once, and the key translates', async () => {
    const secret = await createKey(page, 'browser sandbox', 'Sandbox');
    secrets.push(secret);
    expect(secret).toMatch(/^svc_test_/);
    await inspectPage(page, 'key-created');
    const translated = await translateWith(secret, 'The cat is sleeping.');
    expect(translated.status).toBe(200);
    expect(translated.body.translations?.[0]).toMatch(/gato/i);
  });

  it('keeps live keys locked until the account is activated', async () => {
    await expect.poll(() => page.getByRole('radio', { name: /Live/ }).isDisabled()).toBe(true);
    expect(await page.getByText('Live keys need an activated account').isVisible()).toBe(true);
  });

  it('requests production access, an operator approves it by CLI, and a live key is created', async () => {
    await page.getByRole('link', { name: 'Account' }).click();
    await expect.poll(() => heading(page)).toBe('Account');
    await inspectPage(page, 'account');
    await page.getByLabel('Company').fill('Beispiel GmbH');
    await page.getByLabel('EU VAT identification number').fill('DE123456789');
    await page.getByLabel('Intended use').fill('Our shop catalogue into Spanish');
    await page.getByRole('button', { name: 'Request production access' }).click();
    await expect.poll(() => page.getByTestId('activation-state').textContent()).toBe('Requested, waiting for approval');

    const pending = await runCommand('/bin/sh', ['-c', `${stack.consoleAdmin} account:pending`], { cwd: process.cwd(), env: process.env });
    expect(pending.stdout).toContain(account.name);
    await runAdmin(stack.consoleAdmin, ['account:activate', account.name]);

    await page.reload();
    await expect.poll(() => page.getByTestId('activation-state').textContent()).toBe('Active: live keys can be created');
    await page.getByRole('link', { name: 'API keys' }).click();
    const live = await createKey(page, 'browser live', 'Live');
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
    const row = page.getByRole('row', { name: /browser sandbox/ });
    await row.getByRole('button', { name: 'Revoke' }).click();
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
    const focused = () =>
      page.evaluate(() => {
        const active = (globalThis as unknown as { document: { activeElement: { textContent: string | null; id: string } } }).document.activeElement;
        return { textContent: active.textContent, id: active.id };
      });
    expect((await focused()).textContent).toBe('Skip to content');
    await page.keyboard.press('Enter');
    expect((await focused()).id).toBe('main');

    await page.getByLabel('Name', { exact: true }).focus();
    await page.keyboard.type('typed by keyboard');
    await page.keyboard.press('Enter');
    await page.getByTestId('secret').waitFor();
    const row = page.getByRole('row', { name: /typed by keyboard/ });
    await row.getByRole('button', { name: 'Regenerate' }).focus();
    await page.keyboard.press('Enter');
    expect((await focused()).textContent).toBe('Cancel');
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
    const link = (await page.getByTestId('secret').textContent())!.trim();
    await inspectPage(page, 'users');

    const member = await consolePage(browser);
    await acceptInvitation(member, link);
    const sections = await member.getByRole('navigation', { name: 'Console sections' }).getByRole('link').allTextContents();
    expect(sections).not.toContain('Users');
    await member.goto('/console/users');
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
    await inspectPage(page, 'sign-in');
    await page.getByLabel('Email address').fill(account.ownerEmail);
    await page.getByLabel('Password').fill('not the password');
    await page.getByRole('button', { name: 'Sign in' }).click();
    await expect.poll(() => page.getByRole('alert').textContent()).toContain('Wrong email address or password');
    await page.getByLabel('Password').fill(PASSWORD);
    await page.getByRole('button', { name: 'Sign in' }).click();
    await expect.poll(() => heading(page)).toBe('Overview');
  });

  it('locks sign-in after 20 wrong passwords and says for how long', async () => {
    const other = await operatorAccount({ sandbox: true });
    const stranger = await consolePage(browser);
    await stranger.goto(consolePath(`${stack.consoleUrl}/console/sign-in`));
    for (let i = 0; i < 20; i++) {
      await stranger.request.post('/console/api/session', { data: { email: other.ownerEmail, password: `wrong ${i}` } });
    }
    await stranger.getByLabel('Email address').fill(other.ownerEmail);
    await stranger.getByLabel('Password').fill(PASSWORD);
    await stranger.getByRole('button', { name: 'Sign in' }).click();
    await expect.poll(() => stranger.getByRole('alert').textContent()).toMatch(/locked|too many/i);
    await stranger.context().close();
  });

  it('loads the first page with less than 200 KB of gzipped JavaScript', async () => {
    const visitor = await consolePage(browser);
    const scripts: Promise<number>[] = [];
    visitor.on('response', (response) => {
      if (response.request().resourceType() === 'script') scripts.push(response.body().then((body) => gzipSync(body).length));
    });
    await visitor.goto('/console/sign-in');
    await expect.poll(() => heading(visitor)).toBe('Sign in');
    const sizes = await Promise.all(scripts);
    expect(sizes.length).toBeGreaterThan(0);
    expect(sizes.reduce((sum, size) => sum + size, 0)).toBeLessThan(200 * 1024);
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
