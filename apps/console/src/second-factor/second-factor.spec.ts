import type { NestFastifyApplication } from '@nestjs/platform-fastify';
import { http } from '@platform/testing';
import { generate } from 'otplib';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { accountWithOwner, Browser, newEmail, PASSWORD, sql, startConsole, type TestAccount } from '../console-browser.testing';

/** The authenticator app: the code of now, or of `steps` periods away. */
const codeOf = (secret: string, steps = 0) => generate({ secret, epoch: Math.floor(Date.now() / 1000) + steps * 30 });

/** A 6-digit code that is none of the codes the server accepts now (the steps before, of and after now). */
async function notACodeOf(secret: string, seed = 0): Promise<string> {
  const accepted = await Promise.all([-1, 0, 1].map((steps) => codeOf(secret, steps)));
  for (let n = 100000 + seed; ; n++) if (!accepted.includes(String(n))) return String(n);
}

/** As if the minutes passed that make a new code: the last step accepted moves back. */
const codesAge = (email: string) =>
  sql(`UPDATE translation.console_second_factors SET last_time_step = last_time_step - 3 WHERE user_id = (SELECT id FROM translation.console_users WHERE email = $1)`, [email]);

interface Enrolled {
  secret: string;
  recoveryCodes: string[];
}

async function enrol(browser: Browser, email: string): Promise<Enrolled> {
  const started = await browser.call('POST', '/second-factor/enrolment');
  expect(started.status).toBe(201);
  const confirmed = await browser.call('POST', '/second-factor/enrolment/confirm', { code: await codeOf(started.body.secret) });
  expect(confirmed.status).toBe(200);
  await codesAge(email);
  return { secret: started.body.secret, recoveryCodes: confirmed.body.recovery_codes };
}

/** The first step of sign-in for a user with a second factor: its challenge. */
async function challengeFor(browser: Browser, email: string): Promise<string> {
  const res = await browser.signIn(email);
  expect(res.status).toBe(200);
  expect(res.body.second_factor_required).toBe(true);
  return res.body.challenge;
}

describe('console two-step sign-in over HTTP', () => {
  let app: NestFastifyApplication;
  let url: string;
  let account: TestAccount;

  beforeAll(async () => {
    ({ app, url } = await startConsole({ CONSOLE_SIGNIN_MAX_FAILURES_PER_IP: '30' }));
    account = await accountWithOwner(app, url);
  });
  afterAll(() => app?.close());

  /** A user of the account with two-step sign-in on, signed in. */
  async function enrolledMember(): Promise<Enrolled & { browser: Browser; email: string }> {
    const { browser, email } = await account.join('member');
    return { browser, email, ...(await enrol(browser, email)) };
  }

  it('sets up with a secret shown once, turns on with a code of it and answers ten recovery codes once', async () => {
    const { browser, email } = await account.join('member');
    expect((await browser.call('GET', '/second-factor')).body).toEqual({ ok: true, state: 'off', enabled_at: null, recovery_codes_left: 0 });

    const started = await browser.call('POST', '/second-factor/enrolment');
    expect(started.status).toBe(201);
    expect(started.body).toEqual({ ok: true, secret: expect.stringMatching(/^[A-Z2-7]{32}$/), otpauth_uri: expect.any(String) });
    const uri = new URL(started.body.otpauth_uri);
    expect(`${uri.protocol}//${uri.host}${decodeURIComponent(uri.pathname)}`).toBe(`otpauth://totp/EU Platform console:${email}`);
    expect(Object.fromEntries(uri.searchParams)).toMatchObject({ secret: started.body.secret, issuer: 'EU Platform console' });
    expect((await browser.call('GET', '/second-factor')).body.state).toBe('pending');
    // Pending: sign-in does not ask for it yet.
    expect((await new Browser(url).signIn(email)).body.csrf_token).toEqual(expect.any(String));

    // Starting again replaces the pending secret: a code of the first no longer confirms.
    const again = await browser.call('POST', '/second-factor/enrolment');
    const stale = await browser.call('POST', '/second-factor/enrolment/confirm', { code: await codeOf(started.body.secret) });
    expect(stale.status).toBe(422);
    expect(stale.body).toEqual({ error: 'invalid_request', message: 'code: Wrong code: check that the app shows the entry just added and that the phone’s time is right' });

    const confirmed = await browser.call('POST', '/second-factor/enrolment/confirm', { code: await codeOf(again.body.secret) });
    expect(confirmed.status).toBe(200);
    expect(confirmed.body.recovery_codes).toHaveLength(10);
    for (const code of confirmed.body.recovery_codes) expect(code).toMatch(/^[a-z2-9]{4}(-[a-z2-9]{4}){3}$/);
    expect(new Set(confirmed.body.recovery_codes).size).toBe(10);

    const status = await browser.call('GET', '/second-factor');
    expect(status.body).toEqual({ ok: true, state: 'active', enabled_at: expect.any(String), recovery_codes_left: 10 });
    // Never shown again: not by the status, not by starting over.
    expect(status.text).not.toContain(again.body.secret);
    const restart = await browser.call('POST', '/second-factor/enrolment');
    expect(restart.status).toBe(422);
    expect(restart.body.message).toBe('Two-step sign-in is already on: turn it off first to set it up with another app');
    expect((await browser.call('POST', '/second-factor/enrolment/confirm', { code: await codeOf(again.body.secret, 1) })).body.message).toBe('Two-step sign-in is already on');
  });

  it('asks for the code after the right password: no session until then, and the session once it is given', async () => {
    const { email, secret } = await enrolledMember();
    const browser = new Browser(url);
    const first = await browser.signIn(email);
    expect(first.status).toBe(200);
    expect(first.body).toEqual({ ok: true, second_factor_required: true, challenge: expect.stringMatching(/^[A-Za-z0-9_-]{43}$/), expires_at: expect.any(String) });
    expect(Date.parse(first.body.expires_at) - Date.now()).toBeGreaterThan(4 * 60_000);
    expect(Date.parse(first.body.expires_at) - Date.now()).toBeLessThanOrEqual(5 * 60_000);
    expect(first.headers.get('set-cookie')).toBeNull();
    expect((await browser.call('GET', '/me')).status).toBe(401);
    // A wrong password is refused as before, without a challenge.
    expect((await new Browser(url).signIn(email, 'not the password')).body).toEqual({ error: 'invalid_credentials', message: 'Wrong email address or password' });

    const done = await browser.call('POST', '/session/second-factor', { challenge: first.body.challenge, code: await codeOf(secret) });
    expect(done.status).toBe(200);
    expect(done.body).toMatchObject({ ok: true, user: { email }, csrf_token: expect.any(String) });
    expect(done.body.recovery_codes_left).toBeUndefined();
    expect(browser.lastSetCookie).toMatch(/^console_session=[A-Za-z0-9_-]{43}; Path=\/console/);
    expect((await browser.call('GET', '/me')).status).toBe(200);
  });

  it('refuses a code used once already, also with a new challenge, and accepts the next one', async () => {
    const { email, secret } = await enrolledMember();
    const code = await codeOf(secret);
    expect((await new Browser(url).call('POST', '/session/second-factor', { challenge: await challengeFor(new Browser(url), email), code })).status).toBe(200);
    const replay = await new Browser(url).call('POST', '/session/second-factor', { challenge: await challengeFor(new Browser(url), email), code });
    expect(replay.status).toBe(401);
    expect(replay.body).toEqual({ error: 'invalid_code', message: 'Wrong code, or one already used' });
    // The clock of the phone a step ahead: its code is accepted, and then the one of now is too old.
    const challenge = await challengeFor(new Browser(url), email);
    expect((await new Browser(url).call('POST', '/session/second-factor', { challenge, code: await codeOf(secret, 1) })).status).toBe(200);
    expect((await new Browser(url).call('POST', '/session/second-factor', { challenge: await challengeFor(new Browser(url), email), code: await codeOf(secret) })).status).toBe(401);
    // Two steps away is too far, however fresh.
    await codesAge(email);
    expect((await new Browser(url).call('POST', '/session/second-factor', { challenge: await challengeFor(new Browser(url), email), code: await codeOf(secret, 3) })).status).toBe(401);
  });

  it('lets one of two requests with the same code through', async () => {
    const { email, secret } = await enrolledMember();
    const code = await codeOf(secret);
    const [a, b] = await Promise.all([challengeFor(new Browser(url), email), challengeFor(new Browser(url), email)]);
    const answers = await Promise.all([a, b].map((challenge) => new Browser(url).call('POST', '/session/second-factor', { challenge, code })));
    expect(answers.map((res) => res.status).sort()).toEqual([200, 401]);
  });

  it('uses a challenge once and only until it expires; a wrong code leaves it for the next try', async () => {
    const { email, secret } = await enrolledMember();
    const browser = new Browser(url);
    const challenge = await challengeFor(browser, email);
    expect((await browser.call('POST', '/session/second-factor', { challenge, code: await notACodeOf(secret) })).status).toBe(401);
    expect((await browser.call('POST', '/session/second-factor', { challenge, code: await codeOf(secret) })).status).toBe(200);
    await codesAge(email);
    const used = await new Browser(url).call('POST', '/session/second-factor', { challenge, code: await codeOf(secret) });
    expect(used.status).toBe(401);
    expect(used.body).toEqual({ error: 'challenge_expired', message: 'This sign-in has expired or was completed already: sign in with your password again' });

    const late = await challengeFor(new Browser(url), email);
    await sql(`UPDATE translation.console_sign_in_challenges SET expires_at = now() - interval '1 second' WHERE user_id = (SELECT id FROM translation.console_users WHERE email = $1)`, [email]);
    const expired = await new Browser(url).call('POST', '/session/second-factor', { challenge: late, code: await codeOf(secret) });
    expect(expired.status).toBe(401);
    expect(expired.body.error).toBe('challenge_expired');
    expect((await new Browser(url).call('POST', '/session/second-factor', { challenge: 'A'.repeat(43), code: await codeOf(secret) })).body.error).toBe('challenge_expired');
  });

  it("does not take another user's challenge with one's own code", async () => {
    const mallory = await enrolledMember();
    const victim = await enrolledMember();
    const challenge = await challengeFor(new Browser(url), victim.email);
    const stolen = await new Browser(url).call('POST', '/session/second-factor', { challenge, code: await codeOf(mallory.secret) });
    expect(stolen.status).toBe(401);
    expect(stolen.body.error).toBe('invalid_code');
    const own = await new Browser(url).call('POST', '/session/second-factor', { challenge, recovery_code: mallory.recoveryCodes[0] });
    expect(own.status).toBe(401);
    const victimIn = await new Browser(url).call('POST', '/session/second-factor', { challenge, code: await codeOf(victim.secret) });
    expect(victimIn.body.user.email).toBe(victim.email);
  });

  it('takes each recovery code once, in any case and without dashes, and says how many are left', async () => {
    const { email, recoveryCodes } = await enrolledMember();
    const first = await new Browser(url).call('POST', '/session/second-factor', { challenge: await challengeFor(new Browser(url), email), recovery_code: recoveryCodes[3] });
    expect(first.status).toBe(200);
    expect(first.body).toMatchObject({ ok: true, user: { email }, recovery_codes_left: 9 });
    const again = await new Browser(url).call('POST', '/session/second-factor', { challenge: await challengeFor(new Browser(url), email), recovery_code: recoveryCodes[3] });
    expect(again.status).toBe(401);
    expect(again.body).toEqual({ error: 'invalid_code', message: 'Wrong recovery code, or one already used' });
    const typed = ` ${recoveryCodes[5].toUpperCase().replaceAll('-', ' ')} `;
    const second = await new Browser(url).call('POST', '/session/second-factor', { challenge: await challengeFor(new Browser(url), email), recovery_code: typed });
    expect(second.body.recovery_codes_left).toBe(8);
    const browser = new Browser(url);
    await browser.call('POST', '/session/second-factor', { challenge: await challengeFor(browser, email), recovery_code: recoveryCodes[0] });
    expect((await browser.call('GET', '/second-factor')).body.recovery_codes_left).toBe(7);
  });

  it('counts wrong codes with wrong passwords per account, over any number of right passwords, and then locks sign-in', async () => {
    const { email, secret } = await enrolledMember();
    const answers: string[] = [];
    for (let i = 0; i < 20; i++) {
      // A right password now and then gives back its own try, never the account's count.
      const challenge = await challengeFor(new Browser(url), email);
      const wrong = await new Browser(url).call('POST', '/session/second-factor', { challenge, code: await notACodeOf(secret, i * 10) });
      expect(wrong.status).toBe(401);
      answers.push(wrong.body.message);
    }
    expect(answers[0]).toBe('Wrong code, or one already used');
    expect(answers[14]).toBe('Wrong code, or one already used. After 5 more wrong passwords or codes, sign-in to this account is locked for up to 15 minutes');
    expect(answers[18]).toBe('Wrong code, or one already used. After 1 more wrong password or code, sign-in to this account is locked for up to 15 minutes');
    expect(answers[19]).toBe('Wrong code, or one already used. That was the last wrong password or code allowed: sign-in to this account is locked for 15 minutes');
    const password = await new Browser(url).signIn(email);
    expect(password.status).toBe(429);
    expect(password.body.message).toBe('Sign-in is locked for this account after 20 wrong passwords; try again in 15 minutes');
  }, 60_000);

  it('locks the code step too once the account is locked, even for the right code', async () => {
    const { email, secret } = await enrolledMember();
    const challenge = await challengeFor(new Browser(url), email);
    for (let i = 0; i < 20; i++) await new Browser(url).signIn(email, `guess ${i}`);
    const right = await new Browser(url).call('POST', '/session/second-factor', { challenge, code: await codeOf(secret) });
    expect(right.status).toBe(429);
    expect(right.body).toEqual({ error: 'rate_limited', message: 'Sign-in is locked for this account after 20 wrong passwords or codes; try again in 15 minutes' });
    expect(Number(right.headers.get('retry-after'))).toBeGreaterThan(14 * 60);
  }, 60_000);

  it('counts wrong codes against the client address as well', async () => {
    const { email, secret } = await enrolledMember();
    const address = new Browser(url).address;
    for (let i = 0; i < 10; i++) {
      const challenge = await challengeFor(new Browser(url, address), email);
      expect((await new Browser(url, address).call('POST', '/session/second-factor', { challenge, code: await notACodeOf(secret, i * 10) })).status).toBe(401);
    }
    for (let i = 0; i < 20; i++) expect((await new Browser(url, address).signIn(newEmail('guess'), PASSWORD)).status).toBe(401);
    const locked = await new Browser(url, address).signIn(account.ownerEmail);
    expect(locked.status).toBe(429);
    expect(locked.body.message).toBe('Sign-in is locked for this address after 30 wrong passwords; try again in 15 minutes');
  }, 60_000);

  it('makes new recovery codes for a code only, and the earlier ones stop working', async () => {
    const { browser, email, secret, recoveryCodes } = await enrolledMember();
    const wrong = await browser.call('POST', '/second-factor/recovery-codes', { code: await notACodeOf(secret) });
    expect(wrong.status).toBe(422);
    expect(wrong.body).toEqual({ error: 'invalid_request', message: 'code: Wrong code, or one already used' });
    expect((await browser.call('POST', '/second-factor/recovery-codes', { recovery_code: recoveryCodes[0] })).status).toBe(422);
    const renewed = await browser.call('POST', '/second-factor/recovery-codes', { code: await codeOf(secret) });
    expect(renewed.status).toBe(200);
    expect(renewed.body.recovery_codes).toHaveLength(10);
    expect(renewed.body.recovery_codes).not.toContain(recoveryCodes[0]);
    const old = await new Browser(url).call('POST', '/session/second-factor', { challenge: await challengeFor(new Browser(url), email), recovery_code: recoveryCodes[0] });
    expect(old.status).toBe(401);
    const fresh = await new Browser(url).call('POST', '/session/second-factor', { challenge: await challengeFor(new Browser(url), email), recovery_code: renewed.body.recovery_codes[0] });
    expect(fresh.body.recovery_codes_left).toBe(9);
  });

  it('turns off only with the password and a code or recovery code', async () => {
    const { browser, email, secret, recoveryCodes } = await enrolledMember();
    const noPassword = await browser.call('POST', '/second-factor/disable', { code: await codeOf(secret) });
    expect(noPassword.status).toBe(422);
    const wrongPassword = await browser.call('POST', '/second-factor/disable', { password: 'not the password', code: await codeOf(secret) });
    expect(wrongPassword.body).toEqual({ error: 'invalid_request', message: 'password: Wrong password' });
    expect((await browser.call('POST', '/second-factor/disable', { password: PASSWORD })).body).toEqual({
      error: 'invalid_request',
      message: 'Send either code (from the authenticator app) or recovery_code, not both',
    });
    const wrongCode = await browser.call('POST', '/second-factor/disable', { password: PASSWORD, recovery_code: 'aaaa-aaaa-aaaa-aaaa' });
    expect(wrongCode.body).toEqual({ error: 'invalid_request', message: 'recovery_code: Wrong recovery code, or one already used' });
    expect((await browser.call('POST', '/second-factor/disable', { password: PASSWORD, code: await codeOf(secret) }, { csrf: false })).status).toBe(403);
    expect((await browser.call('GET', '/second-factor')).body.state).toBe('active');

    const off = await browser.call('POST', '/second-factor/disable', { password: PASSWORD, recovery_code: recoveryCodes[1] });
    expect(off.body).toEqual({ ok: true });
    expect((await browser.call('GET', '/second-factor')).body).toEqual({ ok: true, state: 'off', enabled_at: null, recovery_codes_left: 0 });
    expect((await new Browser(url).signIn(email)).body.csrf_token).toEqual(expect.any(String));
    const again = await browser.call('POST', '/second-factor/disable', { password: PASSWORD, code: await codeOf(secret) });
    expect(again.body.message).toBe('Two-step sign-in is not on for your user');
  });

  it('keeps the second factor of a user whose password changed: sign-in still asks for the code', async () => {
    const { email, secret } = await enrolledMember();
    // As a password reset leaves it: a new hash, the second factor as it was.
    await sql(`UPDATE translation.console_users SET password_hash = (SELECT password_hash FROM translation.console_users WHERE email = $1) WHERE email = $2`, [account.ownerEmail, email]);
    const challenge = await challengeFor(new Browser(url), email);
    expect((await new Browser(url).call('POST', '/session/second-factor', { challenge, code: await codeOf(secret) })).status).toBe(200);
  });

  it('answers bad bodies with 4xx in the error envelope, never 500', async () => {
    const { browser } = await enrolledMember();
    const stranger = new Browser(url);
    const cases: [Browser, string, unknown][] = [
      [stranger, '/session/second-factor', {}],
      [stranger, '/session/second-factor', { challenge: 'x' }],
      [stranger, '/session/second-factor', { challenge: 'x', code: '12345' }],
      [stranger, '/session/second-factor', { challenge: 'x', code: 123456 }],
      [stranger, '/session/second-factor', { challenge: 'x', code: '123456', recovery_code: 'abcd' }],
      [stranger, '/session/second-factor', { challenge: 'x', code: '１２３４５６' }],
      [stranger, '/session/second-factor', { challenge: ['x'], code: '123456' }],
      [stranger, '/session/second-factor', { challenge: 'x'.repeat(500), code: '123456' }],
      [stranger, '/session/second-factor', { challenge: 'x', recovery_code: 'x'.repeat(100) }],
      [stranger, '/session/second-factor', { challenge: 'x', code: '123456', admin: true }],
      [stranger, '/session/second-factor', [1, 2]],
      [stranger, '/session/second-factor', null],
      [stranger, '/session/second-factor', 'text'],
      [browser, '/second-factor/enrolment/confirm', { code: 'abcdef' }],
      [browser, '/second-factor/recovery-codes', {}],
      [browser, '/second-factor/disable', { password: 7, code: '123456' }],
      [browser, '/second-factor/disable', { password: PASSWORD, code: null }],
    ];
    for (const [who, path, json] of cases) {
      const res = await who.call('POST', path, json);
      expect(res.status, `${path} ${JSON.stringify(json)}`).toBeGreaterThanOrEqual(400);
      expect(res.status, `${path} ${JSON.stringify(json)}`).toBeLessThan(500);
      expect(res.body, `${path} ${JSON.stringify(json)}`).toEqual({ error: expect.any(String), message: expect.any(String) });
    }
    expect((await stranger.call('POST', '/session/second-factor', { challenge: 'x', code: '12345' })).body).toEqual({
      error: 'invalid_request',
      message: 'code must be the 6 digits your authenticator app shows',
    });
    const form = await http(url, 'POST', '/console/api/session/second-factor', { body: 'challenge=x&code=123456', headers: { 'content-type': 'application/x-www-form-urlencoded' } });
    expect(form.status).toBe(415);
    // The routes of the signed-in user need a session.
    for (const path of ['/second-factor/enrolment', '/second-factor/enrolment/confirm', '/second-factor/recovery-codes', '/second-factor/disable']) {
      expect((await stranger.call('POST', path, {})).status, path).toBe(401);
    }
  });
});
