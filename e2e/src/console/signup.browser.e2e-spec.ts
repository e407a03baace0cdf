import { startSmtpStandIn, type SmtpStandIn } from '@platform/testing';
import { randomUUID } from 'node:crypto';
import type { Browser, Page } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { runAdmin } from '../admin.command';
import { stack } from '../stack.config';
import { consolePage, consolePath, heading, inspectPage, launchChromium, PASSWORD, takeSecret } from './console-browser';
import { canStartMailingConsole, startMailingConsole, stopMailingConsole, type MailingConsole } from './mailing-console';

const SLOW = { timeout: 15_000 };
const LINK = /http:\/\/127\.0\.0\.1:\d+\/console\/verify-email#token=vfy_[A-Za-z0-9_-]{43}/g;

/** Sign-up on; every sign-up of the suite comes from this machine. */
const signupConsole = (smtp: SmtpStandIn, env: Record<string, string> = {}) =>
  startMailingConsole(smtp, { CONSOLE_SIGNUP: 'true', CONSOLE_SIGNUPS_PER_IP_PER_DAY: '1000', ...env });

/** Fills in the sign-up form and lands on "Check your mail". */
async function signUp(page: Page, accountName: string, email: string) {
  await page.goto('/console/sign-up');
  await expect.poll(() => heading(page)).toBe('Create an account');
  await page.getByLabel('Company or account name').fill(accountName);
  await page.getByLabel('Email address').fill(email);
  await page.getByLabel('New password').fill(PASSWORD);
  // A password hash and a mail on the way: more than the default second on a busy machine.
  const answered = page.waitForResponse((response) => response.url().endsWith('/console/api/signup'));
  await page.getByRole('button', { name: 'Create account' }).click();
  const answer = await answered;
  expect(answer.status(), await answer.text()).toBe(201);
  await expect.poll(() => heading(page), SLOW).toBe('Check your mail');
}

describe.skipIf(!canStartMailingConsole)('the console in a browser: signing up', () => {
  let smtp: SmtpStandIn;
  let automatic: MailingConsole;
  let manual: MailingConsole;
  let browser: Browser;

  beforeAll(async () => {
    smtp = await startSmtpStandIn();
    [automatic, manual] = await Promise.all([signupConsole(smtp), signupConsole(smtp, { CONSOLE_SIGNUP_APPROVAL: 'manual' })]);
    browser = await launchChromium();
  });
  afterAll(async () => {
    await browser?.close();
    await Promise.all([automatic, manual].filter(Boolean).map(stopMailingConsole));
    await smtp?.close();
  });

  const linksTo = (email: string) => smtp.received.filter((mail) => mail.to.includes(email.toLowerCase())).flatMap((mail) => [...new Set(mail.message.match(LINK))]);

  const owner = { name: `browser-signup-${randomUUID().slice(0, 8)}`, email: `signup-${randomUUID().slice(0, 8)}@example.eu` };
  let page: Page;

  it('says to check the mail, then shows the unconfirmed owner why there is no key, and sends the link again', async () => {
    page = await consolePage(browser, automatic.url);
    await signUp(page, owner.name, owner.email);
    expect(await page.getByRole('status').textContent()).toContain(`We sent a link to ${owner.email}`);
    await inspectPage(page, 'sign-up-check-mail');
    expect(await page.content()).not.toContain('vfy_');

    await page.getByRole('link', { name: 'Continue to the console' }).click();
    await expect.poll(() => heading(page)).toBe('Overview');
    const status = page.getByTestId('signup-status');
    expect(await status.textContent()).toContain(`Confirm your email address`);
    expect(await status.textContent()).toContain(`Until you open it, this account has no API keys`);
    await inspectPage(page, 'signup-unconfirmed');

    await page.getByRole('link', { name: 'API keys' }).click();
    await expect.poll(() => heading(page)).toBe('API keys');
    expect(await page.getByText('Keys can be created once the sign-up of this account is complete').isVisible()).toBe(true);
    expect(await page.getByRole('button', { name: 'Create key' }).count()).toBe(0);

    await status.getByRole('button', { name: 'Send the link again' }).click();
    await expect.poll(() => status.getByRole('status').textContent(), SLOW).toContain(`A new link is on its way to ${owner.email}`);
    expect(linksTo(owner.email)).toHaveLength(2);
  });

  it('confirms the address from the mailed link in another browser and shows the first sandbox key once, which translates', async () => {
    const [replaced, newest] = linksTo(owner.email);
    const elsewhere = await consolePage(browser, automatic.url);
    await elsewhere.goto(consolePath(newest));
    await expect.poll(() => heading(elsewhere)).toBe('Confirm your email address');
    await inspectPage(elsewhere, 'verify-email');
    await elsewhere.getByRole('button', { name: 'Confirm my address' }).click();
    await expect.poll(() => heading(elsewhere), SLOW).toBe('Address confirmed');
    const secret = (await elsewhere.getByTestId('secret').textContent())!.trim();
    expect(secret).toMatch(/^svc_test_/);
    await inspectPage(elsewhere, 'verify-email-done');
    const translated = await fetch(`${stack.translateUrl}/api/v1/translate`, {
      method: 'POST',
      headers: { authorization: `Bearer ${secret}`, 'content-type': 'application/json' },
      body: JSON.stringify({ source: 'en', target: 'es', texts: ['The cat is sleeping.'] }),
    });
    expect(translated.status).toBe(200);

    // Each link once, the newest only: both are refused now, each saying why.
    for (const [link, message] of [
      [newest, 'This confirmation link was used already'],
      [replaced, 'This confirmation link is not valid'],
    ]) {
      await elsewhere.goto(consolePath(link));
      await elsewhere.reload();
      await elsewhere.getByRole('button', { name: 'Confirm my address' }).click();
      await expect.poll(() => elsewhere.getByRole('alert').textContent()).toContain(message);
    }
    await elsewhere.context().close();

    // The owner's own browser: the notice is gone, keys can be made, the first one is listed.
    await page.reload();
    await expect.poll(() => heading(page)).toBe('API keys');
    expect(await page.getByTestId('signup-status').count()).toBe(0);
    await expect.poll(() => page.getByRole('row', { name: /first sandbox key/ }).isVisible()).toBe(true);
    expect(await page.getByRole('button', { name: 'Create key' }).isVisible()).toBe(true);
    expect(await page.content()).not.toContain(secret);
  });

  it('shows a confirmed sign-up as waiting for approval until an operator approves it (CONSOLE_SIGNUP_APPROVAL=manual)', async () => {
    const waiting = { name: `browser-approval-${randomUUID().slice(0, 8)}`, email: `approval-${randomUUID().slice(0, 8)}@example.eu` };
    const approvalPage = await consolePage(browser, manual.url);
    await signUp(approvalPage, waiting.name, waiting.email);
    await approvalPage.getByRole('link', { name: 'Continue to the console' }).click();
    await expect.poll(() => heading(approvalPage)).toBe('Overview');

    await approvalPage.goto(consolePath(linksTo(waiting.email)[0]));
    await approvalPage.getByRole('button', { name: 'Confirm my address' }).click();
    await expect.poll(() => heading(approvalPage), SLOW).toBe('Address confirmed');
    expect(await approvalPage.getByRole('status').textContent()).toContain('An operator approves new accounts');
    expect(await approvalPage.getByTestId('secret').count()).toBe(0);

    await approvalPage.getByRole('link', { name: 'Continue to the console' }).click();
    const status = approvalPage.getByTestId('signup-status');
    await expect.poll(() => status.textContent()).toContain('Waiting for approval');
    await inspectPage(approvalPage, 'signup-awaiting-approval');

    await runAdmin(stack.consoleAdmin, ['account:approve', waiting.name]);
    await approvalPage.goto('/console/keys');
    await expect.poll(() => heading(approvalPage)).toBe('API keys');
    expect(await approvalPage.getByTestId('signup-status').count()).toBe(0);
    await approvalPage.getByLabel('Name', { exact: true }).fill('approved');
    await approvalPage.getByRole('button', { name: 'Create key' }).click();
    expect(await takeSecret(approvalPage, 'Key “approved” created')).toMatch(/^svc_test_/);
    await approvalPage.context().close();
  });
});
