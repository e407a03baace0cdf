import { randomUUID } from 'node:crypto';
import type { Browser, Page } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { stack } from '../stack.config';
import { acceptInvitation, consolePage, consolePath, heading, inspectPage, launchChromium, operatorAccount, takeSecret } from './console-browser';

/** Addresses of this run: a console user's address is taken across accounts. */
const run = randomUUID().slice(0, 8);
const AGAIN = `again-${run}@example.eu`;
const WITHDRAWN = `withdrawn-${run}@example.eu`;
const LATE = `late-${run}@example.eu`;

/**
 * A link the console made starts with its CONSOLE_PUBLIC_URL, which the stack sets to the
 * console's own port (the host may be another name of this machine).
 */
function expectOnPublicUrl(link: string): void {
  const url = new URL(link);
  expect(url.port).toBe(new URL(stack.consoleUrl).port);
  expect(`${url.pathname}${url.hash}`).toMatch(/^\/console\/accept-invitation#token=inv_/);
}

/** An invitation link is refused by the page it opens: the API's words, in an alert. */
async function expectRefused(browser: Browser, link: string): Promise<void> {
  const page = await consolePage(browser);
  await page.goto(consolePath(link));
  await expect.poll(() => heading(page)).toBe('Join your team');
  await page.getByLabel('New password').fill('a password that will not be used');
  await page.getByRole('button', { name: 'Set password and sign in' }).click();
  await expect.poll(() => page.getByRole('alert').textContent()).toContain('This invitation link is unknown, already used or expired');
  await page.context().close();
}

describe('the console in a browser: open invitations, sent again or withdrawn', () => {
  let browser: Browser;
  let page: Page;
  // An accepted invitation's address comes back as a user: the rows of the open invitations only.
  const row = (email: string) => page.getByRole('region', { name: 'Invitations not yet accepted' }).getByRole('row', { name: new RegExp(email) });
  const userRow = (email: string) => page.getByRole('row').filter({ has: page.getByRole('combobox', { name: `Role of ${email}` }) });

  beforeAll(async () => {
    browser = await launchChromium();
    page = await consolePage(browser);
  });
  afterAll(() => browser?.close());

  it('lists the invitations not yet accepted, with links on the console’s public URL', async () => {
    const account = await operatorAccount({ sandbox: true });
    await acceptInvitation(page, account.invitationLink);
    await page.getByRole('navigation', { name: 'Console sections' }).getByRole('link', { name: 'Users' }).click();
    await expect.poll(() => heading(page)).toBe('Users');
    for (const email of [AGAIN, WITHDRAWN]) {
      await page.getByLabel('Email address').fill(email);
      await page.getByRole('button', { name: 'Invite' }).click();
      const link = await takeSecret(page, `Invitation link for ${email}`);
      expectOnPublicUrl(link);
      await row(email).waitFor();
    }
    // The address names the row; then its role and expiry.
    expect(await row(AGAIN).getByRole('cell').nth(0).textContent()).toBe('member');
    await inspectPage(page, 'invitations', { moderate: true });
  });

  it('sends one again with a new link, shown once; the first link stops working', async () => {
    const invitation = row(AGAIN);
    await invitation.getByRole('button', { name: `Send again the invitation of ${AGAIN}` }).click();
    await page.getByRole('dialog').getByRole('button', { name: 'Send again' }).click();
    const link = await takeSecret(page, `Invitation link for ${AGAIN}`, { inspect: 'invitation-resent' });
    expectOnPublicUrl(link);
    const joined = await consolePage(browser);
    await acceptInvitation(joined, link);
    await joined.context().close();
    await page.reload();
    // Counted once the list has loaded (the other invitation is there), not on the empty page before.
    await row(WITHDRAWN).waitFor();
    expect(await row(AGAIN).count()).toBe(0);
    expect(await userRow(AGAIN).count()).toBe(1);
    await expectRefused(browser, link);
  });

  it('withdraws one after confirmation: its row goes and its link stops working', async () => {
    await page.getByLabel('Email address').fill(LATE);
    await page.getByRole('button', { name: 'Invite' }).click();
    const link = await takeSecret(page, `Invitation link for ${LATE}`);
    const invitation = row(LATE);
    await invitation.getByRole('button', { name: `Withdraw the invitation of ${LATE}` }).click();
    await page.getByRole('dialog').getByRole('button', { name: 'Cancel' }).click();
    expect(await invitation.count()).toBe(1);
    await invitation.getByRole('button', { name: `Withdraw the invitation of ${LATE}` }).click();
    await page.getByRole('dialog').getByRole('button', { name: 'Withdraw' }).click();
    await page.getByRole('status').filter({ hasText: `The invitation of ${LATE} was withdrawn.` }).waitFor();
    await expect.poll(() => invitation.count()).toBe(0);
    expect(await row(WITHDRAWN).count()).toBe(1);
    await expectRefused(browser, link);
  });
});
