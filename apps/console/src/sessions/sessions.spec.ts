import type { NestFastifyApplication } from '@nestjs/platform-fastify';
import { http } from '@platform/testing';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { accountWithOwner, Browser, newEmail, PASSWORD, sql, startConsole, type TestAccount } from '../console-browser.testing';
import { clearedSessionCookie, sessionCookie } from './session-cookie';

describe('console sessions over HTTP', () => {
  let app: NestFastifyApplication;
  let url: string;
  let account: TestAccount;

  beforeAll(async () => {
    ({ app, url } = await startConsole({ CONSOLE_SIGNIN_MAX_FAILURES_PER_IP: '30' }));
    account = await accountWithOwner(app, url);
  });
  afterAll(() => app?.close());

  it('answers 401 not_signed_in without a session cookie, with an unknown one, and on every guarded route', async () => {
    const stranger = new Browser(url);
    for (const [method, path] of [['GET', '/me'], ['GET', '/keys'], ['GET', '/users'], ['POST', '/keys'], ['DELETE', '/sessions']]) {
      const res = await stranger.call(method, path, method === 'POST' ? {} : undefined);
      expect(res.status, `${method} ${path}`).toBe(401);
      expect(res.body).toEqual({ error: 'not_signed_in', message: expect.stringContaining('Sign in') });
    }
    const forged = await stranger.call('GET', '/me', undefined, { headers: { cookie: `console_session=${'A'.repeat(43)}` } });
    expect(forged.status).toBe(401);
  });

  it('signs in with an HttpOnly, SameSite=Lax, Secure cookie and answers who, which account and the CSRF token', async () => {
    const browser = new Browser(url);
    const res = await browser.signIn(account.ownerEmail.toUpperCase());
    expect(res.status).toBe(200);
    expect(res.body).toEqual({
      ok: true,
      user: { id: expect.any(String), email: account.ownerEmail, role: 'owner' },
      account: { id: account.accountId, name: account.name, activation: 'sandbox', signup: 'complete' },
      csrf_token: expect.stringMatching(/^[A-Za-z0-9_-]{43}$/),
    });
    const attributes = browser.lastSetCookie!.split('; ');
    expect(attributes[0]).toMatch(/^console_session=[A-Za-z0-9_-]{43}$/);
    expect(attributes).toEqual(expect.arrayContaining(['HttpOnly', 'SameSite=Lax', 'Secure', 'Path=/console', 'Max-Age=43200']));
    expect(res.headers.get('cache-control')).toBe('no-store');
    // The token is in the cookie only: never in a body.
    expect(res.text).not.toContain(attributes[0].split('=')[1]);
    expect((await browser.call('GET', '/me')).body).toMatchObject({ user: { email: account.ownerEmail }, csrf_token: res.body.csrf_token });
  });

  it('leaves Secure off in development only, where the console runs on plain HTTP', () => {
    expect(sessionCookie('t', { secure: false, maxAgeSeconds: 60 })).toBe('console_session=t; Path=/console; Max-Age=60; HttpOnly; SameSite=Lax');
    expect(clearedSessionCookie({ secure: true })).toBe('console_session=; Path=/console; Max-Age=0; HttpOnly; SameSite=Lax; Secure');
  });

  it('refuses state-changing calls without the CSRF token of the session, with 403 in the envelope', async () => {
    const browser = new Browser(url);
    await browser.signIn(account.ownerEmail);
    const missing = await browser.call('POST', '/keys', { name: 'x' }, { csrf: false });
    expect(missing.status).toBe(403);
    expect(missing.body).toEqual({ error: 'csrf_token_invalid', message: expect.stringContaining('x-csrf-token') });
    const other = new Browser(url);
    await other.signIn(account.ownerEmail);
    const wrong = await browser.call('DELETE', '/session', undefined, { csrf: false, headers: { 'x-csrf-token': other.csrfToken! } });
    expect(wrong.status).toBe(403);
    expect(wrong.body.error).toBe('csrf_token_invalid');
    // Reading needs no token; the refused sign-out left the session alive.
    expect((await browser.call('GET', '/keys', undefined, { csrf: false })).status).toBe(200);
    expect((await browser.call('DELETE', '/session')).status).toBe(200);
    expect(browser.lastSetCookie).toMatch(/^console_session=; Path=\/console; Max-Age=0/);
    expect((await new Browser(url).call('GET', '/me', undefined, { headers: { cookie: `console_session=${other.cookie!.split('=')[1]}` } })).status).toBe(200);
  });

  it('takes JSON only, so no cross-site form can sign a browser in', async () => {
    for (const type of ['application/x-www-form-urlencoded', 'text/plain', 'multipart/form-data; boundary=x']) {
      const res = await http(url, 'POST', '/console/api/session', { body: `email=${account.ownerEmail}&password=${PASSWORD}`, headers: { 'content-type': type } });
      expect(res.status, type).toBe(415);
    }
  });

  it('answers a wrong password and an unknown address alike', async () => {
    const browser = new Browser(url);
    const wrong = await browser.signIn(account.ownerEmail, 'not the password');
    const unknown = await browser.signIn(newEmail('nobody'), PASSWORD);
    expect(wrong.status).toBe(401);
    expect(unknown.status).toBe(401);
    expect(wrong.body).toEqual({ error: 'invalid_credentials', message: 'Wrong email address or password' });
    expect(unknown.body).toEqual(wrong.body);
    expect(browser.cookie).toBeUndefined();
  });

  it('locks sign-in to an account after 20 wrong passwords, even with the right one and from elsewhere, saying for how long', async () => {
    const target = await accountWithOwner(app, url);
    // Spread over addresses, so that the lock is the account's and not an address's.
    const answers: string[] = [];
    for (let i = 0; i < 20; i++) {
      const wrong = await new Browser(url).signIn(target.ownerEmail, `guess ${i}`);
      expect(wrong.status).toBe(401);
      answers.push(wrong.body.message);
    }
    // From the 15th on, each answer warns how many are left; the 20th says the lock is on.
    expect(answers.slice(0, 14)).toEqual(Array(14).fill('Wrong email address or password'));
    expect(answers[14]).toBe('Wrong email address or password. After 5 more wrong passwords, sign-in to this account is locked for up to 15 minutes');
    expect(answers[18]).toBe('Wrong email address or password. After 1 more wrong password, sign-in to this account is locked for up to 15 minutes');
    expect(answers[19]).toBe('Wrong email address or password. That was the last wrong password allowed: sign-in to this account is locked for 15 minutes');
    // An address without a user is warned alike, so the warning tells nothing about which exist.
    const nobody = newEmail('nobody');
    for (let i = 0; i < 14; i++) await new Browser(url).signIn(nobody, `guess ${i}`);
    expect((await new Browser(url).signIn(nobody, 'guess 15')).body.message).toBe(answers[14]);
    const locked = await new Browser(url).signIn(target.ownerEmail);
    expect(locked.status).toBe(429);
    expect(locked.body).toEqual({ error: 'rate_limited', message: 'Sign-in is locked for this account after 20 wrong passwords; try again in 15 minutes' });
    expect(Number(locked.headers.get('retry-after'))).toBeGreaterThan(14 * 60);
    // Sessions opened before stay valid; other accounts sign in as usual.
    expect((await target.owner.call('GET', '/me')).status).toBe(200);
    expect((await new Browser(url).signIn(account.ownerEmail)).status).toBe(200);
  }, 60_000);

  it('locks sign-in from one client address after its limit of wrong passwords for any addresses', async () => {
    const address = new Browser(url).address;
    for (let i = 0; i < 30; i++) expect((await new Browser(url, address).signIn(newEmail('guess'), PASSWORD)).status).toBe(401);
    const locked = await new Browser(url, address).signIn(account.ownerEmail);
    expect(locked.status).toBe(429);
    expect(locked.body.message).toMatch(/^Sign-in is locked for this address after 30 wrong passwords; try again in 15 minutes$/);
    expect((await new Browser(url).signIn(account.ownerEmail)).status).toBe(200);
  }, 60_000);

  it('evaluates no more wrong passwords for an account sent together than one after another, and then refuses the right one too', async () => {
    const target = await accountWithOwner(app, url);
    const address = new Browser(url).address;
    const answers = await Promise.all(Array.from({ length: 60 }, (_, i) => new Browser(url, address).signIn(target.ownerEmail, `parallel guess ${i}`)));
    const statuses = answers.map((res) => res.status);
    // Each 401 is a password that was hashed and compared; a 429 was refused before that.
    expect(statuses.filter((status) => status === 401)).toHaveLength(20);
    expect(statuses.filter((status) => status === 429)).toHaveLength(40);
    const right = await new Browser(url, address).signIn(target.ownerEmail);
    expect(right.status).toBe(429);
    expect(right.body.message).toMatch(/^Sign-in is locked for this account after 20 wrong passwords/);
    expect(Number(right.headers.get('retry-after'))).toBeGreaterThan(14 * 60);
  }, 60_000);

  it('holds wrong passwords for many addresses sent together from one client address to its limit', async () => {
    const address = new Browser(url).address;
    const answers = await Promise.all(Array.from({ length: 60 }, () => new Browser(url, address).signIn(newEmail('parallel'), PASSWORD)));
    expect(answers.filter((res) => res.status === 401)).toHaveLength(30);
    expect(answers.filter((res) => res.status === 429)).toHaveLength(30);
    const right = await new Browser(url, address).signIn(account.ownerEmail);
    expect(right.status).toBe(429);
    expect(right.body.message).toMatch(/^Sign-in is locked for this address after 30 wrong passwords/);
  }, 60_000);

  it('gives a right password its unit back: sign-ins of one address do not add up to a lock', async () => {
    const address = new Browser(url).address;
    for (let i = 0; i < 35; i++) expect((await new Browser(url, address).signIn(account.ownerEmail)).status).toBe(200);
    expect((await new Browser(url, address).signIn(newEmail('after'), PASSWORD)).status).toBe(401);
  }, 60_000);

  it('signs out everywhere: every session of the user ends, other users keep theirs', async () => {
    const [laptop, phone] = [new Browser(url), new Browser(url)];
    await laptop.signIn(account.ownerEmail);
    await phone.signIn(account.ownerEmail);
    const member = await account.join('member');
    const res = await laptop.call('DELETE', '/sessions');
    expect(res.status).toBe(200);
    expect(res.body).toEqual({ ok: true, sessions_closed: expect.any(Number) });
    expect(res.body.sessions_closed).toBeGreaterThanOrEqual(3);
    for (const browser of [laptop, phone, account.owner]) expect((await browser.call('GET', '/me')).status).toBe(401);
    expect((await member.browser.call('GET', '/me')).status).toBe(200);
    account.owner = new Browser(url);
    expect((await account.owner.signIn(account.ownerEmail)).status).toBe(200);
  });

  it('ends a session after the idle timeout and after the absolute timeout', async () => {
    const [idle, old] = [new Browser(url), new Browser(url)];
    await idle.signIn(account.ownerEmail);
    await old.signIn(account.ownerEmail);
    const hash = (browser: Browser) => `encode(sha256(convert_to('${browser.cookie!.split('=')[1]}', 'UTF8')), 'hex')`;
    await sql(`UPDATE translation.console_sessions SET last_seen_at = now() - interval '31 minutes' WHERE token_hash = ${hash(idle)}`);
    await sql(`UPDATE translation.console_sessions SET created_at = now() - interval '13 hours' WHERE token_hash = ${hash(old)}`);
    expect((await idle.call('GET', '/me')).status).toBe(401);
    expect((await old.call('GET', '/me')).status).toBe(401);
  });
});
