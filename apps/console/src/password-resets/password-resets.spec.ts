import { Logger } from '@nestjs/common';
import type { NestFastifyApplication } from '@nestjs/platform-fastify';
import { startSmtpStandIn, type SmtpStandIn } from '@platform/testing';
import { afterAll, beforeAll, describe, expect, it, vi } from 'vitest';
import { accountWithOwner, Browser, newEmail, PASSWORD, sql, startConsole, tokenOf, type TestAccount } from '../console-browser.testing';
import { PasswordResetsService } from './password-resets.service';

const PUBLIC_URL = 'https://console.example.eu';
const LINK = /https:\/\/console\.example\.eu\/console\/reset-password#token=pwr_[A-Za-z0-9_-]{43}/g;
const RESET_PATH = '/console/reset-password#token=';
const NEW_PASSWORD = 'a quite different passphrase';

describe('console password reset by mail', () => {
  let smtp: SmtpStandIn;
  let app: NestFastifyApplication;
  let url: string;
  let account: TestAccount;

  beforeAll(async () => {
    smtp = await startSmtpStandIn();
    ({ app, url } = await startConsole({ SMTP_URL: `smtp://127.0.0.1:${smtp.port}`, CONSOLE_MAIL_FROM: 'console@example.eu', CONSOLE_PUBLIC_URL: PUBLIC_URL }));
    account = await accountWithOwner(app, url);
  });
  afterAll(async () => {
    await app?.close();
    await smtp?.close();
  });

  /** Asks for a link as a browser of its own, and waits until it is mailed (or not). */
  const ask = async (email: string, browser = new Browser(url)) => {
    const res = await browser.call('POST', '/password-resets', { email });
    await app.get(PasswordResetsService).settled();
    return res;
  };
  /** Every reset link mailed to `email`, oldest first (the invitations of the test users are mailed too). */
  const linksTo = (email: string) => smtp.received.filter((mail) => mail.to.includes(email.toLowerCase())).flatMap((mail) => [...new Set(mail.message.match(LINK))]);
  const resetMails = () => smtp.received.filter((mail) => mail.message.includes(RESET_PATH));
  const check = (link: string) => new Browser(url).call('POST', '/password-resets/check', { token: tokenOf(link) });
  const complete = (link: string, password = NEW_PASSWORD) => new Browser(url).call('POST', '/password-resets/complete', { token: tokenOf(link), password });

  it('mails a link that sets a new password once, ends every session of the user and signs nobody in', async () => {
    const user = await account.join('member');
    const elsewhere = new Browser(url);
    expect((await elsewhere.signIn(user.email)).status).toBe(200);

    const asked = await ask(user.email.toUpperCase());
    expect(asked.status).toBe(202);
    expect(asked.body).toEqual({ ok: true, link_valid_minutes: 60 });
    expect(asked.headers.get('set-cookie')).toBeNull();
    const [link] = linksTo(user.email);
    const [mail] = smtp.received.filter((received) => received.to.includes(user.email) && received.message.includes(RESET_PATH));
    expect(mail.message).toMatch(/^Subject: Choose a new password for the console\r?$/m);
    expect(mail.message).toContain(`<a href="${link}"`);
    expect(mail.message).toContain(`Someone asked to reset the password of the console user ${user.email}.`);
    expect(mail.message).toMatch(/The link works once, until .* UTC\./);

    const checked = await check(link);
    expect(checked.status).toBe(200);
    expect(checked.body).toEqual({ ok: true, email: user.email, expires_at: expect.any(String) });
    const lifetime = Date.parse(checked.body.expires_at) - Date.now();
    expect(lifetime).toBeGreaterThan(59 * 60_000);
    expect(lifetime).toBeLessThanOrEqual(60 * 60_000);

    const browser = new Browser(url);
    const done = await browser.call('POST', '/password-resets/complete', { token: tokenOf(link), password: NEW_PASSWORD });
    expect(done.status).toBe(200);
    expect(done.body).toEqual({ ok: true, sessions_closed: 2 });
    expect(browser.cookie).toBeUndefined();

    // Both sessions (the invitation's and the other browser's) have ended.
    expect((await user.browser.call('GET', '/me')).status).toBe(401);
    expect((await elsewhere.call('GET', '/me')).status).toBe(401);
    expect((await new Browser(url).signIn(user.email, PASSWORD)).status).toBe(401);
    expect((await new Browser(url).signIn(user.email, NEW_PASSWORD)).status).toBe(200);

    const again = await complete(link, 'yet another long passphrase');
    expect(again.status).toBe(409);
    expect(again.body).toEqual({ error: 'link_used', message: 'This password reset link was used already. Sign in with the new password, or ask for a new link' });
    expect((await check(link)).body).toEqual(again.body);
    expect((await new Browser(url).signIn(user.email, NEW_PASSWORD)).status).toBe(200);
  });

  it("lifts the account's sign-in lock once the new password is set", async () => {
    const user = await account.join('member');
    for (let i = 0; i < 20; i++) await new Browser(url).signIn(user.email, `guess ${i}`);
    const locked = await new Browser(url).signIn(user.email, PASSWORD);
    expect(locked.status).toBe(429);
    await ask(user.email);
    const [link] = linksTo(user.email);
    // The lock holds until the link is used, whatever password is tried.
    expect((await new Browser(url).signIn(user.email, PASSWORD)).status).toBe(429);
    expect((await complete(link)).status).toBe(200);
    expect((await new Browser(url).signIn(user.email, NEW_PASSWORD)).status).toBe(200);
  });

  it('answers an address without a user exactly as one with, and mails it nothing', async () => {
    const nobody = newEmail('nobody');
    const before = resetMails().length;
    const unknown = await ask(nobody);
    const known = await ask(account.ownerEmail);
    expect(unknown.status).toBe(known.status);
    expect(unknown.body).toEqual(known.body);
    expect(unknown.headers.get('content-type')).toBe(known.headers.get('content-type'));
    expect(resetMails().slice(before).map((mail) => mail.to)).toEqual([[account.ownerEmail]]);
  });

  it('refuses an expired link and an unknown one, each saying why, and keeps the password', async () => {
    const user = await account.join('member');
    await ask(user.email);
    const [link] = linksTo(user.email);
    await sql(`UPDATE translation.console_password_resets SET expires_at = now() - interval '1 second' WHERE user_id = $1`, [user.userId]);
    for (const res of [await check(link), await complete(link)]) {
      expect(res.status).toBe(410);
      expect(res.body).toEqual({ error: 'link_expired', message: 'This password reset link has expired. Ask for a new one' });
    }
    const unknown = await complete(`${PUBLIC_URL}/console/reset-password#token=pwr_${'A'.repeat(43)}`);
    expect(unknown.status).toBe(404);
    expect(unknown.body).toEqual({ error: 'not_found', message: expect.stringMatching(/^This password reset link is not valid: /) });
    expect((await new Browser(url).signIn(user.email, PASSWORD)).status).toBe(200);
  });

  it('withdraws the earlier open links of a user when a new one is asked for', async () => {
    const user = await account.join('member');
    await ask(user.email);
    await ask(user.email);
    const [earlier, newer] = linksTo(user.email);
    expect(earlier).not.toBe(newer);
    expect((await complete(earlier)).status).toBe(404);
    expect((await check(newer)).status).toBe(200);
    expect((await complete(newer)).status).toBe(200);
  });

  it('limits links per email address, known or not, and per client address, with 429 in the envelope', async () => {
    for (const email of [(await account.join('member')).email, newEmail('nobody')]) {
      for (let i = 0; i < 3; i++) expect((await ask(email)).status).toBe(202);
      const refused = await ask(email);
      expect(refused.status).toBe(429);
      expect(refused.body).toEqual({ error: 'rate_limited', message: expect.stringMatching(/^A reset link for this email address was asked for 3 times within an hour, the most allowed; try again in (59|60) minutes$/) });
      expect(Number(refused.headers.get('retry-after'))).toBeGreaterThan(59 * 60 - 5);
    }
    const address = new Browser(url).address;
    for (let i = 0; i < 20; i++) expect((await ask(newEmail('many'), new Browser(url, address))).status).toBe(202);
    const refused = await ask(newEmail('many'), new Browser(url, address));
    expect(refused.status).toBe(429);
    expect(refused.body).toEqual({ error: 'rate_limited', message: expect.stringMatching(/^Your network address asked for 20 reset links within an hour, the most allowed; try again in/) });
  });

  it('refuses bad bodies with 4xx in the envelope, never 500', async () => {
    const browser = new Browser(url);
    const cases: [string, unknown][] = [
      ['/password-resets', {}],
      ['/password-resets', { email: 42 }],
      ['/password-resets', { email: 'not an address' }],
      ['/password-resets', { email: `${'a'.repeat(250)}@example.eu` }],
      ['/password-resets', { email: account.ownerEmail, admin: true }],
      ['/password-resets', [account.ownerEmail]],
      ['/password-resets/check', {}],
      ['/password-resets/check', { token: 'x'.repeat(201) }],
      ['/password-resets/complete', { token: 'pwr_x' }],
      ['/password-resets/complete', { token: 'pwr_x', password: 123456789012 }],
      ['/password-resets/complete', { token: 'pwr_x', password: 'short' }],
      ['/password-resets/complete', { token: 'pwr_x', password: 'x'.repeat(257) }],
      ['/password-resets/complete', { token: 'pwr_x', password: NEW_PASSWORD, email: account.ownerEmail }],
    ];
    for (const [path, body] of cases) {
      const res = await browser.call('POST', path, body);
      expect(res.status, `${path} ${JSON.stringify(body).slice(0, 60)}`).toBeGreaterThanOrEqual(400);
      expect(res.status, `${path} ${JSON.stringify(body).slice(0, 60)}`).toBeLessThan(500);
      expect(res.body).toEqual({ error: expect.any(String), message: expect.any(String) });
    }
    const short = await browser.call('POST', '/password-resets/complete', { token: 'pwr_x', password: 'short' });
    expect(short.body).toEqual({ error: 'invalid_request', message: expect.stringContaining('password must be from 12 to 256 characters') });
  });
});

describe('console password reset without a mail server', () => {
  let app: NestFastifyApplication;
  let url: string;

  beforeAll(async () => {
    ({ app, url } = await startConsole());
  });
  afterAll(() => app?.close());

  it('answers as with one, makes no link and warns in the log once', async () => {
    const warn = vi.spyOn(Logger.prototype, 'warn');
    try {
      const account = await accountWithOwner(app, url);
      const answers = [];
      for (const email of [account.ownerEmail, newEmail('nobody'), account.ownerEmail]) {
        answers.push(await new Browser(url).call('POST', '/password-resets', { email }));
        await app.get(PasswordResetsService).settled();
      }
      for (const res of answers) expect([res.status, res.body]).toEqual([202, { ok: true, link_valid_minutes: 60 }]);
      const warnings = warn.mock.calls.filter(([message]) => JSON.stringify(message).includes('password reset'));
      expect(warnings).toEqual([[{ msg: 'password reset asked for, but the console sends no mail (no SMTP_URL): no reset link is made or sent' }]]);
    } finally {
      warn.mockRestore();
    }
  });
});
