import { generate } from 'otplib';
import type { Browser, Page } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { acceptInvitation, consolePage, heading, inspectPage, launchChromium, operatorAccount, PASSWORD, takeSecret, type OperatorAccount } from './console-browser';

/** The authenticator app: the code of now, or of `steps` periods away. */
const codeOf = (secret: string, steps = 0) => generate({ secret, epoch: Math.floor(Date.now() / 1000) + steps * 30 });

async function signOut(page: Page): Promise<void> {
  await page.getByRole('button', { name: 'Sign out', exact: true }).click();
  await expect.poll(() => heading(page)).toBe('Sign in');
}

/** The password step, which a user with two-step sign-in passes to the code step. */
async function password(page: Page, email: string): Promise<void> {
  await page.getByLabel('Email address').fill(email);
  await page.getByLabel('Password').fill(PASSWORD);
  await page.getByRole('button', { name: 'Sign in' }).click();
  await expect.poll(() => heading(page)).toBe('Enter your code');
}

describe('the console in a browser: two-step sign-in with an authenticator app and recovery codes', () => {
  let browser: Browser;
  let page: Page;
  let account: OperatorAccount;
  let secret: string;
  let recoveryCodes: string[];

  beforeAll(async () => {
    browser = await launchChromium();
    account = await operatorAccount({ sandbox: true });
    page = await consolePage(browser);
  });
  afterAll(() => browser?.close());

  it('turns it on from the Account page with the key it shows and a code of it, and shows the recovery codes once', async () => {
    await acceptInvitation(page, account.invitationLink);
    await page.getByRole('navigation', { name: 'Console sections' }).getByRole('link', { name: 'Account' }).click();
    await expect.poll(() => heading(page)).toBe('Account');
    const section = page.getByRole('region', { name: 'Two-step sign-in' });
    await expect.poll(() => section.getByTestId('two-step-state').textContent()).toBe('Off.');
    await section.getByRole('button', { name: 'Turn on two-step sign-in' }).click();

    const shown = section.getByTestId('totp-secret');
    await shown.waitFor();
    // In groups of four for typing; the app takes it without the spaces.
    expect(await shown.textContent()).toMatch(/^([A-Z2-7]{4} ){7}[A-Z2-7]{4}$/);
    secret = (await shown.textContent())!.replace(/\s/g, '');
    const uri = await section.getByRole('link', { name: 'On this device: open it in the authenticator app' }).getAttribute('href');
    expect(uri).toContain(`otpauth://totp/EU%20Platform%20console:${encodeURIComponent(account.ownerEmail)}?secret=${secret}`);
    await inspectPage(page, 'two-step-setup', { moderate: true });

    // A wrong code is said under the field.
    const code = section.getByLabel('Code from the app');
    await code.fill((await codeOf(secret)) === '000000' ? '111111' : '000000');
    await section.getByRole('button', { name: 'Turn on', exact: true }).click();
    await expect.poll(() => code.getAttribute('aria-invalid')).toBe('true');
    await code.fill(await codeOf(secret));
    await section.getByRole('button', { name: 'Turn on', exact: true }).click();
    recoveryCodes = (await takeSecret(page, 'Your recovery codes', { inspect: 'two-step-recovery-codes' })).split('\n');
    expect(recoveryCodes).toHaveLength(10);
    for (const recovery of recoveryCodes) expect(recovery).toMatch(/^[a-z2-9]{4}(-[a-z2-9]{4}){3}$/);
    await expect.poll(() => section.getByTestId('two-step-state').textContent()).toMatch(/^On since .+\. Recovery codes left: 10\.$/);
    // Neither the key nor the codes are shown again.
    await page.reload();
    await expect.poll(() => section.getByTestId('two-step-state').textContent()).toMatch(/^On since/);
    const html = await page.content();
    expect(html).not.toContain(secret);
    for (const recovery of recoveryCodes) expect(html).not.toContain(recovery);
    await inspectPage(page, 'two-step-on', { moderate: true });
  });

  it('asks for the code after the password, and signs in with a code of the app', async () => {
    await signOut(page);
    await password(page, account.ownerEmail);
    const code = page.getByLabel('Code from the app');
    expect(await code.getAttribute('autocomplete')).toBe('one-time-code');
    expect(await code.getAttribute('inputmode')).toBe('numeric');
    await inspectPage(page, 'sign-in-code', { moderate: true });

    await code.fill((await codeOf(secret, 1)) === '000000' ? '111111' : '000000');
    await page.getByRole('button', { name: 'Verify' }).click();
    await expect.poll(() => page.getByRole('alert').textContent()).toContain('Wrong code, or one already used');
    await inspectPage(page, 'sign-in-code-wrong', { moderate: true });
    // The code turning it on was of this step: the next one, as a phone a little ahead shows it.
    await code.fill(await codeOf(secret, 1));
    await page.getByRole('button', { name: 'Verify' }).click();
    await page.getByRole('navigation', { name: 'Console sections' }).waitFor();
    await expect.poll(() => heading(page)).toBe('Account');
  });

  it('signs in with a recovery code instead, once, and says how many are left', async () => {
    await signOut(page);
    await password(page, account.ownerEmail);
    await page.getByRole('button', { name: 'Use a recovery code instead' }).click();
    await page.getByLabel('Recovery code').fill(recoveryCodes[0]);
    await inspectPage(page, 'sign-in-recovery-code', { moderate: true });
    await page.getByRole('button', { name: 'Verify' }).click();
    await expect.poll(() => heading(page)).toBe('Signed in with a recovery code');
    expect(await page.getByRole('status').first().textContent()).toContain('Recovery codes left: 9.');
    await inspectPage(page, 'sign-in-recovery-used', { moderate: true });
    await page.getByRole('button', { name: 'Continue' }).click();
    await page.getByRole('navigation', { name: 'Console sections' }).waitFor();

    // Spent: the same code a second time is refused.
    await signOut(page);
    await password(page, account.ownerEmail);
    await page.getByRole('button', { name: 'Use a recovery code instead' }).click();
    await page.getByLabel('Recovery code').fill(recoveryCodes[0]);
    await page.getByRole('button', { name: 'Verify' }).click();
    await expect.poll(() => page.getByRole('alert').textContent()).toContain('Wrong recovery code, or one already used');
    await page.getByLabel('Recovery code').fill(recoveryCodes[1]);
    await page.getByRole('button', { name: 'Verify' }).click();
    await page.getByRole('button', { name: 'Continue' }).click();
    await page.getByRole('navigation', { name: 'Console sections' }).waitFor();
  });

  it('asks for a code before new recovery codes, and for the password and a code before turning it off', async () => {
    await page.goto('/console/account');
    const section = page.getByRole('region', { name: 'Two-step sign-in' });
    await expect.poll(() => section.getByTestId('two-step-state').textContent()).toMatch(/Recovery codes left: 8\.$/);
    await section.getByRole('button', { name: 'New recovery codes' }).click();
    const renew = page.getByRole('dialog', { name: 'Make new recovery codes' });
    await renew.getByLabel('Code from the app').waitFor();
    await inspectPage(page, 'two-step-new-codes', { moderate: true });
    await renew.getByRole('button', { name: 'Cancel' }).click();

    await section.getByRole('button', { name: 'Turn off', exact: true }).click();
    const dialog = page.getByRole('dialog', { name: 'Turn off two-step sign-in' });
    await dialog.getByLabel('Current password').fill('not the password');
    await dialog.getByRole('button', { name: 'Use a recovery code instead' }).click();
    await dialog.getByLabel('Recovery code').fill(recoveryCodes[2]);
    await dialog.getByRole('button', { name: 'Turn off', exact: true }).click();
    await expect.poll(() => dialog.getByLabel('Current password').getAttribute('aria-invalid')).toBe('true');
    await inspectPage(page, 'two-step-turn-off', { moderate: true });
    await dialog.getByLabel('Current password').fill(PASSWORD);
    await dialog.getByRole('button', { name: 'Turn off', exact: true }).click();
    await expect.poll(() => section.getByTestId('two-step-state').textContent()).toBe('Off.');

    // Sign-in asks for the password only again.
    await signOut(page);
    await page.getByLabel('Email address').fill(account.ownerEmail);
    await page.getByLabel('Password').fill(PASSWORD);
    await page.getByRole('button', { name: 'Sign in' }).click();
    await page.getByRole('navigation', { name: 'Console sections' }).waitFor();
  });
});
