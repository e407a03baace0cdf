import type { Browser, Page } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { acceptInvitation, accessibleDescription, consolePage, heading, inspectPage, launchChromium, operatorAccount, type OperatorAccount } from './console-browser';

/** The page's alerts, as a screen reader hears them, and never with a generic prefix. */
async function alertText(page: Page): Promise<string> {
  const alert = page.getByRole('alert').first();
  await alert.waitFor();
  const text = (await alert.textContent())!;
  expect(text).not.toMatch(/something went wrong/i);
  return text;
}

describe('the console in a browser: errors in words a customer reads', () => {
  let browser: Browser;
  let page: Page;
  let account: OperatorAccount;

  beforeAll(async () => {
    browser = await launchChromium();
    page = await consolePage(browser);
    account = await operatorAccount({ sandbox: true });
  });
  afterAll(() => browser?.close());

  it('says the console could not be reached when no answer comes, and what to do', async () => {
    await acceptInvitation(page, account.invitationLink);
    await page.goto('/console/keys');
    await expect.poll(() => heading(page)).toBe('API keys');
    await page.route('**/console/api/keys', (route) => (route.request().method() === 'POST' ? route.abort('internetdisconnected') : route.continue()));
    await page.getByLabel('Name', { exact: true }).fill('offline');
    await page.getByRole('button', { name: 'Create key' }).click();
    expect(await alertText(page)).toBe('The console could not be reached.Check your connection, then try again.');
    await inspectPage(page, 'error-unreachable', { moderate: true });
    await page.unroute('**/console/api/keys');
  });

  it('says what failed, without a status line, when an answer is not the API’s', async () => {
    await page.route('**/console/api/keys', (route) =>
      route.request().method() === 'POST' ? route.fulfill({ status: 502, contentType: 'text/html', body: '<h1>Bad Gateway</h1>' }) : route.continue(),
    );
    await page.getByRole('button', { name: 'Create key' }).click();
    await expect.poll(() => alertText(page)).toBe(
      'The console could not do this (error 502).Nothing was changed by this attempt. Try again in a moment; if it keeps failing, tell your operator.',
    );
    await page.unroute('**/console/api/keys');
  });

  it('puts an invitation refused for its address under the address', async () => {
    await page.goto('/console/users');
    await expect.poll(() => heading(page)).toBe('Users');
    await page.getByLabel('Email address').fill(account.ownerEmail);
    await page.getByRole('button', { name: 'Invite' }).click();
    const email = page.getByLabel('Email address');
    await expect.poll(() => email.getAttribute('aria-invalid')).toBe('true');
    expect(await accessibleDescription(page, 'input[type="email"]')).toBe(`${account.ownerEmail} already has a console user`);
    expect(await page.locator('main').textContent()).not.toMatch(/something went wrong/i);
    await inspectPage(page, 'invite-refused', { moderate: true });
  });
});
