import type { Browser, Page } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { acceptInvitation, consolePage, heading, inspectPage, launchChromium, operatorAccount, PASSWORD, type OperatorAccount } from './console-browser';

const SIGNED_OUT_EVERYWHERE = 'You have signed out everywhere: every session of your user has ended, this one included.';
const ENDED = 'Your session has ended: you signed out in another tab or on another device, or it went unused for too long. Sign in again to go on.';

async function signIn(page: Page, email: string, path: string): Promise<void> {
  await page.goto(`/console/sign-in?next=${encodeURIComponent(path)}`);
  await page.getByLabel('Email address').fill(email);
  await page.getByLabel('Password').fill(PASSWORD);
  await page.getByRole('button', { name: 'Sign in' }).click();
  await page.getByRole('navigation', { name: 'Console sections' }).waitFor();
}

/** The sign-in page, with the notice of why the session ended. */
async function endedNotice(page: Page): Promise<string | null> {
  await expect.poll(() => heading(page), { timeout: 15_000 }).toBe('Sign in');
  const notice = page.getByTestId('session-ended');
  await notice.waitFor();
  expect(await notice.getAttribute('role')).toBe('status');
  return notice.textContent();
}

describe('the console in a browser: a session that ends says so in every tab', () => {
  let browser: Browser;
  let account: OperatorAccount;
  let first: Page;
  let secondTab: Page;
  let otherDevice: Page;
  let reloaded: Page;

  beforeAll(async () => {
    browser = await launchChromium();
    account = await operatorAccount({ sandbox: true });
  });
  afterAll(() => browser?.close());

  it('signs the owner in on two devices, with two tabs on one and a third tab to reload', async () => {
    first = await consolePage(browser);
    await acceptInvitation(first, account.invitationLink);
    secondTab = await first.context().newPage();
    await secondTab.goto('/console/keys');
    await expect.poll(() => heading(secondTab)).toBe('API keys');
    reloaded = await first.context().newPage();
    await reloaded.goto('/console/glossaries');
    await expect.poll(() => heading(reloaded)).toBe('Glossaries');
    otherDevice = await consolePage(browser);
    await signIn(otherDevice, account.ownerEmail, '/overview');
  });

  it('ends its own tab with "Sign out everywhere", and says so', async () => {
    await first.getByRole('navigation', { name: 'Console sections' }).getByRole('link', { name: 'Account' }).click();
    await expect.poll(() => heading(first)).toBe('Account');
    await first.getByRole('button', { name: 'Sign out everywhere' }).click();
    await first.getByRole('dialog').getByRole('button', { name: 'Sign out everywhere' }).click();
    expect(await endedNotice(first)).toBe(SIGNED_OUT_EVERYWHERE);
    await inspectPage(first, 'signed-out-everywhere', { moderate: true });
  });

  it('tells the other tab of the browser at once, without a click', async () => {
    expect(await endedNotice(secondTab)).toBe(ENDED);
  });

  it('tells a tab reloaded after the end, and another device at its next step', async () => {
    await reloaded.reload();
    expect(await endedNotice(reloaded)).toBe(ENDED);

    await otherDevice.getByRole('navigation', { name: 'Console sections' }).getByRole('link', { name: 'API keys' }).click();
    expect(await endedNotice(otherDevice)).toBe(ENDED);
    await inspectPage(otherDevice, 'session-ended', { moderate: true });
  });

  it('says "You have signed out." after Sign out, and comes back to the page after signing in', async () => {
    await signIn(first, account.ownerEmail, '/keys');
    await first.getByRole('button', { name: 'Sign out', exact: true }).click();
    expect(await endedNotice(first)).toBe('You have signed out.');
    await first.getByLabel('Email address').fill(account.ownerEmail);
    await first.getByLabel('Password').fill(PASSWORD);
    await first.getByRole('button', { name: 'Sign in' }).click();
    await expect.poll(() => heading(first)).toBe('API keys');
  });

  it('shows a fresh visitor the sign-in page without a notice', async () => {
    const visitor = await consolePage(browser);
    await visitor.goto('/console/keys');
    await expect.poll(() => heading(visitor)).toBe('Sign in');
    expect(await visitor.getByTestId('session-ended').count()).toBe(0);
    await visitor.context().close();
  });
});
