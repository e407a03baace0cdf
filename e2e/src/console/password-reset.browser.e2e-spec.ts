import { startSmtpStandIn, type SmtpStandIn } from '@platform/testing';
import type { Browser, Page } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { acceptInvitation, consolePage, consolePath, heading, inspectPage, launchChromium, operatorAccount, PASSWORD, type OperatorAccount } from './console-browser';
import { canStartMailingConsole, startMailingConsole, stopMailingConsole, type MailingConsole } from './mailing-console';

const SLOW = { timeout: 15_000 };
const LINK = /http:\/\/127\.0\.0\.1:\d+\/console\/reset-password#token=pwr_[A-Za-z0-9_-]{43}/g;
const NEW_PASSWORD = 'a new and rather long passphrase';

describe.skipIf(!canStartMailingConsole)('the console in a browser: a forgotten password', () => {
  let smtp: SmtpStandIn;
  let mailing: MailingConsole;
  let browser: Browser;
  let account: OperatorAccount;
  /** The owner's session from before the reset, which the reset ends. */
  let before: Page;
  let link: string;

  beforeAll(async () => {
    smtp = await startSmtpStandIn();
    [mailing, browser, account] = await Promise.all([startMailingConsole(smtp), launchChromium(), operatorAccount({ sandbox: true })]);
  });
  afterAll(async () => {
    await browser?.close();
    if (mailing) await stopMailingConsole(mailing);
    await smtp?.close();
  });

  const linksTo = (email: string) => smtp.received.filter((mail) => mail.to.includes(email.toLowerCase())).flatMap((mail) => [...new Set(mail.message.match(LINK))]);

  it('signs the owner in, a session the reset is to end', async () => {
    before = await consolePage(browser, mailing.url);
    await acceptInvitation(before, account.invitationLink);
  });

  it('asks for a link from the sign-in page and says it was sent if the account exists', async () => {
    const page = await consolePage(browser, mailing.url);
    await page.goto('/console/sign-in');
    await expect.poll(() => heading(page)).toBe('Sign in');
    await page.getByRole('link', { name: 'Forgot your password?' }).click();
    await expect.poll(() => heading(page)).toBe('Reset your password');
    await inspectPage(page, 'forgot-password', { moderate: true });

    await page.getByLabel('Email address').fill(account.ownerEmail);
    await page.getByRole('button', { name: 'Send the link' }).click();
    await expect.poll(() => heading(page), SLOW).toBe('Check your mail');
    expect(await page.getByRole('status').textContent()).toContain(`If an account exists for ${account.ownerEmail}, we sent a link. It works once, for an hour.`);
    await inspectPage(page, 'forgot-password-sent', { moderate: true });

    await expect.poll(() => linksTo(account.ownerEmail).length, SLOW).toBe(1);
    [link] = linksTo(account.ownerEmail);
    expect(await page.content()).not.toContain('pwr_');
    await page.context().close();
  });

  it('sets a new password from the mailed link, which ends the earlier session and signs in', async () => {
    const page = await consolePage(browser, mailing.url);
    await page.goto(consolePath(link));
    // The page asks whether the link works first: the form comes with the answer.
    await page.getByLabel('New password', { exact: true }).waitFor(SLOW);
    expect(await heading(page)).toBe('Choose a new password');
    expect(await page.getByText(`For the console user ${account.ownerEmail}.`).isVisible()).toBe(true);
    await inspectPage(page, 'reset-password', { moderate: true });

    // Two different passwords: said beside the second field, and nothing is sent.
    await page.getByLabel('New password', { exact: true }).fill(NEW_PASSWORD);
    await page.getByLabel('New password again').fill('something else entirely');
    await page.getByRole('button', { name: 'Set new password' }).click();
    const again = page.getByLabel('New password again');
    await expect.poll(() => again.getAttribute('aria-invalid')).toBe('true');
    expect(await page.getByRole('alert').textContent()).toBe('The two passwords differ: type the same password twice.');
    await inspectPage(page, 'reset-password-mismatch', { moderate: true });

    await again.fill(NEW_PASSWORD);
    await page.getByRole('button', { name: 'Set new password' }).click();
    await expect.poll(() => heading(page), SLOW).toBe('Password changed');
    await inspectPage(page, 'reset-password-done', { moderate: true });

    await before.reload();
    await expect.poll(() => heading(before), SLOW).toBe('Sign in');

    await page.getByRole('link', { name: 'Sign in' }).click();
    await expect.poll(() => heading(page)).toBe('Sign in');
    await page.getByLabel('Email address').fill(account.ownerEmail);
    await page.getByLabel('Password', { exact: true }).fill(PASSWORD);
    await page.getByRole('button', { name: 'Sign in' }).click();
    await expect.poll(() => page.getByRole('alert').textContent(), SLOW).toContain('Wrong email address or password');
    await page.getByLabel('Password', { exact: true }).fill(NEW_PASSWORD);
    await page.getByRole('button', { name: 'Sign in' }).click();
    await page.getByRole('navigation', { name: 'Console sections' }).waitFor();
    await page.context().close();
  });

  it('says in words that the link was used, before a password is typed, with the way to a new one', async () => {
    const page = await consolePage(browser, mailing.url);
    await page.goto(consolePath(link));
    await expect.poll(() => heading(page), SLOW).toBe('This link was used already');
    expect(await page.getByRole('alert').textContent()).toContain('This password reset link was used already.');
    expect(await page.getByLabel('New password', { exact: true }).count()).toBe(0);
    await inspectPage(page, 'reset-password-used', { moderate: true });
    await page.getByRole('link', { name: 'Ask for a new link' }).click();
    await expect.poll(() => heading(page)).toBe('Reset your password');
    await page.context().close();
  });
});
