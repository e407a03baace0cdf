import type { NestFastifyApplication } from '@nestjs/platform-fastify';
import { AccountService } from '@platform/auth';
import { TokenService } from '@platform/image-tokens';
import { buildApp, expectOperatorMistake, freePort, runNode, startBuiltApp, startSmtpStandIn, testAppEnv, testEnv } from '@platform/testing';
import { randomUUID } from 'node:crypto';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { accountWithOwner, Browser, newEmail, PASSWORD, startConsole, tokenOf } from '../console-browser.testing';

const admin = (...args: string[]) => runNode(['dist/apps/console/main.js', 'admin', ...args]);
const adminWith = (env: Record<string, string>, ...args: string[]) => runNode(['dist/apps/console/main.js', 'admin', ...args], env);
/** The console connected to image-api's schema, in the test database. */
const IMAGES = { IMAGE_DATABASE_URL: testEnv.databaseUrl };

describe("the console's operator commands (built console, admin command)", () => {
  let app: NestFastifyApplication;
  let url: string;

  beforeAll(async () => {
    await buildApp('console');
    ({ app, url } = await startConsole(IMAGES));
  });
  afterAll(() => app?.close());

  it('invites an owner with a link on the last line that signs them in once; activation follows their request', async () => {
    const name = `cli-console-${randomUUID()}`;
    await app.get(AccountService).create(name, { activated: false });
    const email = newEmail('cli');
    const invited = await admin('user:invite', '--account', name, '--email', email);
    expect(invited.code, invited.stderr).toBe(0);
    expect(invited.stdout).toContain(`invited ${email} as owner of "${name}"`);
    // CONSOLE_PUBLIC_URL's default, as the command runs with the test environment: allowed outside production, and said.
    expect(invited.lastLine).toMatch(/^http:\/\/localhost:3500\/console\/accept-invitation#token=inv_[A-Za-z0-9_-]{43}$/);
    expect(invited.stderr).toMatch(/^warning: CONSOLE_PUBLIC_URL is http:\/\/localhost:3500 \(NODE_ENV=test\): the link opens only in a browser on this machine/);

    const owner = new Browser(url);
    expect((await owner.call('POST', '/invitations/accept', { token: tokenOf(invited.lastLine), password: PASSWORD })).status).toBe(200);
    expect((await new Browser(url).call('POST', '/invitations/accept', { token: tokenOf(invited.lastLine), password: PASSWORD })).status).toBe(404);
    expectOperatorMistake(await admin('user:invite', '--account', name, '--email', email), /already has a console user/);

    await owner.call('POST', '/activation', { company: 'CLI GmbH', vat_id: 'DE999999999', intended_use: 'testing\nthe CLI' });
    const pending = await admin('account:pending');
    expect(pending.code, pending.stderr).toBe(0);
    expect(pending.stdout).toMatch(new RegExp(`^${name}\\t[0-9a-f-]{36}\\trequested `, 'm'));
    expect(pending.stdout).toContain('company: CLI GmbH\tVAT id: DE999999999\tuse: testing the CLI');

    const activated = await admin('account:activate', name);
    expect(activated.code, activated.stderr).toBe(0);
    expect(activated.lastLine).toMatch(/^\d{4}-\d\d-\d\dT/);
    expect((await owner.call('GET', '/me')).body.account.activation).toBe('active');
    expect((await admin('account:pending')).stdout).not.toContain(name);
    expect((await owner.call('POST', '/keys', { name: 'live', sandbox: false })).status).toBe(201);
  }, 120_000);

  it('mails the invitation when SMTP_URL is set, says so, and still prints the link last; says why when it cannot', async () => {
    const smtp = await startSmtpStandIn();
    try {
      const name = `cli-mail-${randomUUID()}`;
      await app.get(AccountService).create(name, { activated: false });
      const mailEnv = { CONSOLE_MAIL_FROM: 'console@example.eu', CONSOLE_PUBLIC_URL: 'https://console.example.eu' };
      const email = newEmail('cli-mailed');
      const invited = await adminWith({ ...mailEnv, SMTP_URL: `smtp://127.0.0.1:${smtp.port}` }, 'user:invite', '--account', name, '--email', email, '--role', 'member');
      expect(invited.code, invited.stderr).toBe(0);
      expect(invited.stdout).toContain(`mailed the link to ${email.toLowerCase()}\n`);
      expect(invited.stderr).toBe('');
      expect(invited.lastLine).toMatch(/^https:\/\/console\.example\.eu\/console\/accept-invitation#token=inv_/);
      const [mail] = smtp.received;
      expect(mail.to).toEqual([email.toLowerCase()]);
      expect(mail.message).toContain(invited.lastLine);
      expect(mail.message).toContain(`You are invited to the console of the account "${name}" as member.`);
      expect((await new Browser(url).call('POST', '/invitations/accept', { token: tokenOf(invited.lastLine), password: PASSWORD })).status).toBe(200);

      const down = await adminWith({ ...mailEnv, SMTP_URL: `smtp://mailer:hunter2-secret@127.0.0.1:${await freePort()}` }, 'user:invite', '--account', name, '--email', newEmail('cli-unmailed'));
      expect(down.code, down.stderr).toBe(0);
      expect(down.stdout).toMatch(/^could not mail the link \(.*ECONNREFUSED.*\): pass it on yourself$/m);
      expect(down.lastLine).toMatch(/#token=inv_/);
      expect(down.stdout + down.stderr).not.toContain('hunter2');
    } finally {
      await smtp.close();
    }
  }, 120_000);

  it('refuses to invite in production without CONSOLE_PUBLIC_URL, before creating anything, rather than print a localhost link', async () => {
    const name = `cli-production-${randomUUID()}`;
    await app.get(AccountService).create(name, { activated: false });
    const email = newEmail('cli-production');
    const refused = await adminWith({ NODE_ENV: 'production' }, 'user:invite', '--account', name, '--email', email);
    expect(refused.code).toBe(1);
    expect(refused.stdout).toBe('');
    expect(refused.stderr).toContain('CONSOLE_PUBLIC_URL in production must be the https:// address people reach the console at');
    expect(refused.stderr).not.toContain('localhost:3500/console/accept-invitation');
    // Nothing was created: the same address can be invited once the setting is right.
    expect((await admin('user:invite', '--account', name, '--email', email)).code).toBe(0);
  }, 120_000);

  it('refuses to start, serving or for a command, on a malformed SMTP_URL, naming the setting but not its password', async () => {
    const mailEnv = { SMTP_URL: 'smtp://mailer:hunter2-secret@mail.example.eu:587/inbox', CONSOLE_MAIL_FROM: 'console@example.eu' };
    const served = startBuiltApp('console', testAppEnv(mailEnv));
    const refused = await adminWith(mailEnv, 'account:pending');
    expect(await served.exit).toEqual({ code: 1, signal: null });
    for (const stderr of [served.stderr(), refused.stderr]) {
      expect(stderr).toContain('SMTP_URL="smtp://mailer:***@mail.example.eu:587/inbox": SMTP_URL must be smtp://[user:password@]host[:port]');
      expect(stderr).not.toContain('hunter2');
    }
    expect(refused.code).toBe(1);
  });

  it('lists confirmed sign-ups waiting for approval and approves one by id; nothing to approve before the confirmation', async () => {
    const smtp = await startSmtpStandIn();
    const manual = await startConsole({ CONSOLE_SIGNUP_APPROVAL: 'manual', SMTP_URL: `smtp://127.0.0.1:${smtp.port}`, CONSOLE_MAIL_FROM: 'console@example.eu' });
    try {
      const email = newEmail('approval');
      const name = `cli-signup-${randomUUID()}`;
      const owner = new Browser(manual.url);
      const signedUp = await owner.call('POST', '/signup', { account_name: name, email, password: PASSWORD });
      expect(signedUp.status).toBe(201);
      const id = signedUp.body.account.id;
      expectOperatorMistake(await admin('account:approve', id), /is not confirmed yet: its owner has not opened the mailed link/);
      expect((await admin('account:signups')).stdout).not.toContain(id);

      const link = /http:\/\/localhost:3500\/console\/verify-email#token=vfy_[A-Za-z0-9_-]{43}/.exec(smtp.received[0].message)![0];
      expect((await new Browser(manual.url).call('POST', '/signup/verify', { token: tokenOf(link) })).body.account.signup).toBe('awaiting_approval');
      const waiting = await admin('account:signups');
      expect(waiting.code, waiting.stderr).toBe(0);
      expect(waiting.stdout).toMatch(new RegExp(`^${name}\\t${id}\\tsigned up \\S+\\tconfirmed \\S+\\towner: ${email.toLowerCase()}$`, 'm'));
      expect(waiting.lastLine).toMatch(/^\d+ sign-ups? confirmed and waiting for approval \(admin account:approve NAME\|ID\)$/);

      const approved = await admin('account:approve', id);
      expect(approved.code, approved.stderr).toBe(0);
      expect(approved.stdout).toContain(`account "${name}" (${id}) is approved`);
      expect(approved.lastLine).toMatch(/^\d{4}-\d\d-\d\dT/);
      expect((await admin('account:signups')).stdout).not.toContain(id);
      expect((await owner.call('POST', '/keys', { name: 'k' })).status).toBe(201);
      // Operators name accounts by id in the console's other commands too.
      expect((await admin('account:activate', id)).code).toBe(0);
      expect((await admin('user:invite', '--account', id, '--email', newEmail('by-id'))).stdout).toContain(`of "${name}"`);
    } finally {
      await manual.app.close();
      await smtp.close();
    }
  }, 120_000);

  it('logs the confirmation link of a sign-up outside production when there is no mail server, and answers it nowhere', async () => {
    const served = startBuiltApp('console', testAppEnv({ CONSOLE_SIGNUP: 'true', LOG_LEVEL: 'info', TRUSTED_PROXIES: '127.0.0.1' }));
    try {
      const consoleUrl = await served.listening;
      const signedUp = await new Browser(consoleUrl).call('POST', '/signup', { account_name: `cli-log-${randomUUID()}`, email: newEmail('logged'), password: PASSWORD });
      expect(signedUp.body).toMatchObject({ mailed: false, account: { signup: 'email_unverified' } });
      const logged = served.stdout().split('\n').map((line) => (line.startsWith('{') ? JSON.parse(line) : {})).find((entry) => entry.link);
      expect(logged).toMatchObject({ level: 'warn', msg: expect.stringContaining('no SMTP_URL'), link: expect.stringMatching(/\/console\/verify-email#token=vfy_/) });
      expect(signedUp.text).not.toContain(tokenOf(logged.link));
      expect((await new Browser(consoleUrl).call('POST', '/signup/verify', { token: tokenOf(logged.link) })).body.account.signup).toBe('complete');
    } finally {
      served.child.kill('SIGTERM');
      await served.exit;
    }
  }, 60_000);

  it('invites a reviewer with their languages, which they review once signed in', async () => {
    const name = `cli-review-${randomUUID()}`;
    await app.get(AccountService).create(name, { activated: true });
    const email = newEmail('cli-reviewer');
    const invited = await admin('user:invite', '--account', name, '--email', email, '--role', 'reviewer', '--languages', 'DE,fr');
    expect(invited.code, invited.stderr).toBe(0);
    expect(invited.stdout).toContain(`invited ${email} as reviewer (de, fr) of "${name}"`);
    const reviewer = new Browser(url);
    expect((await reviewer.call('POST', '/invitations/accept', { token: tokenOf(invited.lastLine), password: PASSWORD })).status).toBe(200);
    expect((await reviewer.call('GET', '/review')).body.reviewer).toEqual({ languages: ['de', 'fr'] });
  }, 120_000);

  it("links an image subscription to an account by its name, whose console then shows it, or to none; refuses an account that does not exist", async () => {
    const account = await accountWithOwner(app, url);
    const { subscriptionId } = await app.get(TokenService).create('pro');
    const shown = async () => (await account.owner.call('GET', '/images/subscriptions')).body.subscriptions.map((s: { id: string }) => s.id);

    expectOperatorMistake(await adminWith(IMAGES, 'subscription:link', subscriptionId, '--account', randomUUID()), /^no account has the id [0-9a-f-]{36}, nor that name/);
    expectOperatorMistake(await adminWith(IMAGES, 'subscription:link', subscriptionId, '--account', `nosuch-${randomUUID()}`), /does not exist/);
    expect(await app.get(TokenService).subscriptionsOf(account.accountId)).toEqual([]);

    const linked = await adminWith(IMAGES, 'subscription:link', subscriptionId, '--account', account.name);
    expect(linked.code, linked.stderr).toBe(0);
    expect(linked.stdout).toContain(`pro subscription ${subscriptionId} is linked to account "${account.name}": its tokens and conversions show in that account's console`);
    expect(linked.lastLine).toBe(account.accountId);
    expect(await shown()).toEqual([subscriptionId]);

    const unlinked = await adminWith(IMAGES, 'subscription:link', subscriptionId, '--account', 'NONE');
    expect(unlinked.code, unlinked.stderr).toBe(0);
    expect(unlinked.lastLine).toBe('none');
    expect(await shown()).toEqual([]);
  }, 120_000);

  it.each([
    [['subscription:link', randomUUID(), '--account', 'acme'], /IMAGE_DATABASE_URL is not set/],
    [['subscription:link', '--account', 'none'], /give exactly one subscription id/],
    [['subscription:link', randomUUID()], /--account is required/],
  ])('refuses %j without image-api\'s database or with missing arguments, exit code 1', async (args, message) => {
    expectOperatorMistake(await admin(...args), message);
  });

  it.each([
    [['subscription:link', randomUUID(), '--account', 'none'], /no image subscription/],
    [['subscription:link', 'sub-1', '--account', 'none'], /no image subscription sub-1/],
  ])('refuses %j, naming no subscription, exit code 1', async (args, message) => {
    expectOperatorMistake(await adminWith(IMAGES, ...args), message);
  });

  it.each([
    [['user:invite', '--email', 'a@example.eu'], /--account is required/],
    [['user:invite', '--account', 'x', '--email', 'nope'], /--email must be an email address/],
    [['user:invite', '--account', 'x', '--email', 'a@example.eu', '--role', 'boss'], /--role must be one of owner, member, reviewer/],
    [['user:invite', '--account', `nosuch-${randomUUID()}`, '--email', 'a@example.eu'], /does not exist/],
    [['user:invite', '--account', 'x', '--email', 'a@example.eu', '--role', 'reviewer', '--languages', 'de,xx'], /--languages: xx is not an EU language code/],
    [['account:activate'], /exactly one account name or id/],
    [['account:approve'], /exactly one account name or id/],
    [['account:approve', `nosuch-${randomUUID()}`], /does not exist/],
    [['account:signups', 'extra'], /Unexpected argument 'extra'/],
    [['account:activate', `nosuch-${randomUUID()}`], /does not exist/],
    [['account:pending', 'extra'], /Unexpected argument 'extra'/],
  ])('refuses %j with a message on stderr and exit code 1', async (args, message) => {
    expectOperatorMistake(await admin(...args), message);
  });
});
