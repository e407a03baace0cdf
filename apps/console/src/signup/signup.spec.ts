import type { NestFastifyApplication } from '@nestjs/platform-fastify';
import { AccountService, ApiKeyService } from '@platform/auth';
import { loadConfig } from '@platform/service-kit';
import { leaseRedisDatabase, startSmtpStandIn, type SmtpStandIn } from '@platform/testing';
import { Redis } from 'ioredis';
import { randomUUID } from 'node:crypto';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { ConsoleConfig } from '../config/console.config';
import { Browser, newEmail, PASSWORD, sql, startConsole, tokenOf } from '../console-browser.testing';

const PUBLIC_URL = 'https://console.example.eu';
const LINK = /https:\/\/console\.example\.eu\/console\/verify-email#token=vfy_[A-Za-z0-9_-]{43}/g;

/** Letters and digits as their fullwidth forms, which NFKC folds back. */
const fullwidth = (text: string) => text.replace(/[!-~]/g, (c) => String.fromCharCode(c.charCodeAt(0) + 0xfee0));

/** The console with sign-up on, mailing through `smtp`; generous limits unless a test says otherwise. */
const startSignupConsole = (smtp: SmtpStandIn, env: Record<string, string> = {}) =>
  startConsole({
    SMTP_URL: `smtp://127.0.0.1:${smtp.port}`,
    CONSOLE_MAIL_FROM: 'console@example.eu',
    CONSOLE_PUBLIC_URL: PUBLIC_URL,
    CONSOLE_SIGNUPS_PER_IP_PER_DAY: '1000',
    CONSOLE_SIGNUPS_PER_HOUR: '1000000',
    ...env,
  });

const signUp = (browser: Browser, email = newEmail('signup'), accountName = `signup-${randomUUID()}`) =>
  browser.call('POST', '/signup', { account_name: accountName, email, password: PASSWORD }).then((res) => Object.assign(res, { email, accountName }));

describe('console sign-up with a mail server', () => {
  let smtp: SmtpStandIn;
  let app: NestFastifyApplication;
  let url: string;

  beforeAll(async () => {
    smtp = await startSmtpStandIn();
    ({ app, url } = await startSignupConsole(smtp));
  });
  afterAll(async () => {
    await app?.close();
    await smtp?.close();
  });

  /** Every confirmation link mailed to `email`, oldest first. */
  const linksTo = (email: string) => smtp.received.filter((mail) => mail.to.includes(email.toLowerCase())).flatMap((mail) => [...new Set(mail.message.match(LINK))]);
  const verify = (link: string) => new Browser(url).call('POST', '/signup/verify', { token: tokenOf(link) });

  it('opens an account that holds no key yet, mails the confirmation link and answers it nowhere', async () => {
    const owner = new Browser(url);
    const res = await signUp(owner);
    expect(res.status).toBe(201);
    expect(res.body).toEqual({
      ok: true,
      user: { id: expect.any(String), email: res.email.toLowerCase(), role: 'owner' },
      account: { id: expect.any(String), name: res.accountName, activation: 'sandbox', signup: 'email_unverified' },
      csrf_token: expect.any(String),
      mailed: true,
    });
    const [link] = linksTo(res.email);
    const [mail] = smtp.received.filter((received) => received.to.includes(res.email.toLowerCase()));
    expect(mail.message).toMatch(new RegExp(`^Subject: Confirm your email address for ${res.accountName}\\r?$`, 'm'));
    expect(mail.message).toContain(`<a href="${link}"`);

    const answers = [res, await owner.call('GET', '/me'), await owner.call('GET', '/keys'), await owner.call('POST', '/keys', { name: 'k' })];
    for (const answer of answers) expect(answer.text).not.toContain(tokenOf(link));
    expect(answers[2].body.keys).toEqual([]);
    expect(answers[3].status).toBe(403);
    expect(answers[3].body).toEqual({ error: 'forbidden', message: expect.stringMatching(/sign-up is not confirmed yet.*holds no keys/) });

    // The key service refuses alike, whoever asks (the public API and the operator's key:create go through it).
    const accountId = res.body.account.id;
    await expect(app.get(ApiKeyService).create(accountId, { sandbox: true })).rejects.toThrow(/sign-up is not confirmed yet/);
    // Nor may an unconfirmed account mail strangers, or ask for production access.
    expect((await owner.call('POST', '/users/invitations', { email: newEmail('stranger') })).status).toBe(403);
    expect((await owner.call('POST', '/activation', { company: 'Farm GmbH', vat_id: 'DE123456789', intended_use: 'free words' })).status).toBe(403);
  });

  it('completes the sign-up through the mailed link and shows the first sandbox key once; the link works once', async () => {
    const owner = new Browser(url);
    const res = await signUp(owner);
    const [link] = linksTo(res.email);

    const confirmed = await verify(link);
    expect(confirmed.status).toBe(200);
    expect(confirmed.body).toEqual({
      ok: true,
      account: { id: res.body.account.id, name: res.accountName, activation: 'sandbox', signup: 'complete' },
      key: expect.objectContaining({ name: 'first sandbox key', prefix: 'svc_test_', sandbox: true }),
      secret: expect.stringMatching(/^svc_test_[0-9A-Za-z]{40}$/),
    });
    expect((await app.get(ApiKeyService).authenticate(confirmed.body.secret))?.accountId).toBe(res.body.account.id);
    expect((await owner.call('GET', '/me')).body.account.signup).toBe('complete');
    expect((await owner.call('POST', '/keys', { name: 'k' })).status).toBe(201);
    expect((await owner.call('GET', '/keys')).text).not.toContain(confirmed.body.secret);

    const again = await verify(link);
    expect(again.status).toBe(409);
    expect(again.body).toEqual({ error: 'link_used', message: 'This confirmation link was used already: the address is confirmed. Sign in to continue' });
    expect((await owner.call('POST', '/signup/verification-mail')).body).toMatchObject({ error: 'already_verified' });
  });

  it('answers a wrong, a replaced and an expired link with errors that say so; a new link works', async () => {
    const owner = new Browser(url);
    const res = await signUp(owner);
    const wrong = await new Browser(url).call('POST', '/signup/verify', { token: `vfy_${'A'.repeat(43)}` });
    expect(wrong.status).toBe(404);
    expect(wrong.body).toEqual({ error: 'not_found', message: expect.stringMatching(/^This confirmation link is not valid/) });

    const resent = await owner.call('POST', '/signup/verification-mail');
    expect(resent.status).toBe(200);
    expect(resent.body).toEqual({ ok: true, mailed: true });
    expect(resent.text).not.toContain('vfy_');
    const [first, second] = linksTo(res.email);
    expect((await verify(first)).status).toBe(404);

    await sql(`UPDATE translation.console_email_verifications SET expires_at = now() - interval '1 second' WHERE token_hash = encode(sha256(convert_to($1, 'UTF8')), 'hex')`, [tokenOf(second)]);
    const expired = await verify(second);
    expect(expired.status).toBe(410);
    expect(expired.body).toEqual({ error: 'link_expired', message: 'This confirmation link has expired: sign in and send a new one' });

    await owner.call('POST', '/signup/verification-mail');
    expect((await verify(linksTo(res.email)[2])).status).toBe(200);
  });

  it('mails an account at most CONSOLE_VERIFICATION_MAILS_PER_DAY links, and only to its owners', async () => {
    const owner = new Browser(url);
    const res = await signUp(owner);
    for (let i = 0; i < 4; i++) expect((await owner.call('POST', '/signup/verification-mail')).status).toBe(200);
    const refused = await owner.call('POST', '/signup/verification-mail');
    expect(refused.status).toBe(429);
    expect(refused.body).toEqual({ error: 'rate_limited', message: expect.stringMatching(/^The confirmation mail was sent 5 times within a day, the most it may be; try again in 2\d hours$/) });
    expect(Number(refused.headers.get('retry-after'))).toBeGreaterThan(23 * 3600);
    expect(linksTo(res.email)).toHaveLength(5);
    expect((await new Browser(url).call('POST', '/signup/verification-mail')).status).toBe(401);
  });

  it('takes no account name that reads like a taken one: case, letter width and surrounding spaces do not count', async () => {
    const name = `Acme ${randomUUID().slice(0, 8)}`;
    expect((await signUp(new Browser(url), newEmail('acme'), name)).status).toBe(201);
    for (const lookalike of [name.toUpperCase(), ` ${name} `, fullwidth(name), fullwidth(name.toLowerCase())]) {
      const taken = await signUp(new Browser(url), newEmail('lookalike'), lookalike);
      expect(taken.status, JSON.stringify(lookalike)).toBe(422);
      expect(taken.body).toEqual({ error: 'invalid_request', message: expect.stringMatching(/exists already \(names are compared ignoring case, letter width and surrounding spaces\); choose another name$/) });
    }
    expect((await signUp(new Browser(url), newEmail('uuid'), randomUUID())).body.message).toMatch(/cannot be a UUID/);
  });

  it('limits sign-ups per client address, sent together or one after another, before anything is created', async () => {
    const limited = await startSignupConsole(smtp, { CONSOLE_SIGNUPS_PER_IP_PER_DAY: '3' });
    try {
      const address = new Browser(limited.url).address;
      const names = Array.from({ length: 10 }, () => `farmed-${randomUUID()}`);
      const answers = await Promise.all(names.map((name) => signUp(new Browser(limited.url, address), newEmail('farm'), name)));
      expect(answers.filter((res) => res.status === 201)).toHaveLength(3);
      const refused = answers.filter((res) => res.status === 429);
      expect(refused).toHaveLength(7);
      expect(refused[0].body).toEqual({ error: 'rate_limited', message: expect.stringMatching(/^This address has opened 3 accounts within a day, the most it may; try again in 2\d hours$/) });
      expect(Number(refused[0].headers.get('retry-after'))).toBeGreaterThan(23 * 3600);
      const created = await Promise.all(names.map((name) => limited.app.get(AccountService).findByName(name)));
      expect(created.filter(Boolean)).toHaveLength(3);

      expect((await signUp(new Browser(limited.url, address))).status).toBe(429);
      expect((await signUp(new Browser(limited.url))).status).toBe(201);
    } finally {
      await limited.app.close();
    }
  }, 60_000);

  it('limits sign-ups over all client addresses per hour', async () => {
    // The count over all addresses is one Redis key: a database of its own keeps other tests' sign-ups out of it, and earlier runs' go first.
    const redis = await leaseRedisDatabase();
    const client = new Redis(redis.url);
    await client.del('console-signup:all').finally(() => client.disconnect());
    const limited = await startSignupConsole(smtp, { REDIS_URL: redis.url, CONSOLE_SIGNUPS_PER_HOUR: '2' });
    try {
      const answers = await Promise.all(Array.from({ length: 5 }, () => signUp(new Browser(limited.url))));
      expect(answers.filter((res) => res.status === 201)).toHaveLength(2);
      const refused = answers.filter((res) => res.status === 429);
      expect(refused).toHaveLength(3);
      expect(refused[0].body.message).toMatch(/^Too many accounts were opened in the last hour; sign-up is paused for everyone, try again in (59|60) minutes$/);
      expect(Number(refused[0].headers.get('retry-after'))).toBeGreaterThan(3500);
    } finally {
      await limited.app.close();
      await redis.release();
    }
  });

  it('keeps a confirmed sign-up without keys until an operator approves it, with CONSOLE_SIGNUP_APPROVAL=manual', async () => {
    const manual = await startSignupConsole(smtp, { CONSOLE_SIGNUP_APPROVAL: 'manual' });
    try {
      const owner = new Browser(manual.url);
      const res = await signUp(owner);
      const confirmed = await new Browser(manual.url).call('POST', '/signup/verify', { token: tokenOf(linksTo(res.email)[0]) });
      expect(confirmed.status).toBe(200);
      expect(confirmed.body).toEqual({ ok: true, account: expect.objectContaining({ signup: 'awaiting_approval' }) });
      const refused = await owner.call('POST', '/keys', { name: 'k' });
      expect(refused.status).toBe(403);
      expect(refused.body.message).toMatch(/waits for an operator's approval/);

      const accounts = manual.app.get(AccountService);
      const waiting = await accounts.awaitingApproval();
      expect(waiting.map((account) => account.id)).toContain(res.body.account.id);
      await accounts.approveSignup(waiting.find((account) => account.id === res.body.account.id)!);
      expect((await owner.call('GET', '/me')).body.account.signup).toBe('complete');
      expect((await owner.call('POST', '/keys', { name: 'k' })).status).toBe(201);
    } finally {
      await manual.app.close();
    }
  });
});

describe('console sign-up switched off (the default)', () => {
  let app: NestFastifyApplication;
  let url: string;

  beforeAll(async () => {
    ({ app, url } = await startConsole({ CONSOLE_SIGNUP: 'false' }));
  });
  afterAll(() => app?.close());

  it('answers 404 and creates nothing', async () => {
    const email = newEmail('nosignup');
    const res = await new Browser(url).call('POST', '/signup', { account_name: `nosignup-${email}`, email, password: PASSWORD });
    expect(res.status).toBe(404);
    expect(res.body).toEqual({ error: 'not_found', message: 'Sign-up is not enabled here; ask the operator for an invitation' });
    expect(await app.get(AccountService).findByName(`nosignup-${email}`)).toBeNull();
  });
});

describe('sign-up without a mail server', () => {
  it('stops at start in production, where a confirmation link has nowhere to go', () => {
    expect(() => loadConfig(ConsoleConfig, { NODE_ENV: 'production', CONSOLE_SIGNUP: 'true' })).toThrow(
      /CONSOLE_SIGNUP=true: CONSOLE_SIGNUP=true in production needs SMTP_URL \(and CONSOLE_MAIL_FROM\)/,
    );
    const mailing = { NODE_ENV: 'production', CONSOLE_SIGNUP: 'true', SMTP_URL: 'smtp://mail.example.eu', CONSOLE_MAIL_FROM: 'console@example.eu' };
    expect(loadConfig(ConsoleConfig, { ...mailing, CONSOLE_PUBLIC_URL: 'https://console.example.eu' }).CONSOLE_SIGNUP).toBe(true);
    // Links to people elsewhere cannot start with this machine's address.
    for (const url of [undefined, 'http://console.example.eu', 'https://localhost:3500', 'https://127.0.0.1']) {
      expect(() => loadConfig(ConsoleConfig, { ...mailing, ...(url && { CONSOLE_PUBLIC_URL: url }) }), url).toThrow(/CONSOLE_PUBLIC_URL in production must be the https:\/\/ address/);
    }
    expect(loadConfig(ConsoleConfig, { NODE_ENV: 'development', CONSOLE_SIGNUP: 'true' }).CONSOLE_SIGNUP).toBe(true);
  });
});
