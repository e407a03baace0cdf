import { NestFastifyApplication } from '@nestjs/platform-fastify';
import { AccountService } from '@platform/auth';
import { loadConfig } from '@platform/service-kit';
import { buildApp, expectOperatorMistake, http, runNode, testAppEnv } from '@platform/testing';
import { randomUUID } from 'node:crypto';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { TranslateApiConfig } from '../config/translate-api.config';
import { serveTranslateApi } from '../translate-api.app';

const KEY = /^svc_(test|live)_[0-9A-Za-z]{40}$/;

const admin = (...args: string[]) => runNode(['dist/apps/translate-api/main.js', 'admin', ...args]);

describe('operator CLI (built translate-api, admin command)', () => {
  let app: NestFastifyApplication;
  let url: string;

  beforeAll(async () => {
    await buildApp('translate-api');
    app = await serveTranslateApi(loadConfig(TranslateApiConfig, testAppEnv()));
    url = await app.getUrl();
  });
  afterAll(() => app?.close());

  async function newAccount(): Promise<string> {
    const name = `cli-${randomUUID()}`;
    const run = await admin('account:create', name);
    expect(run.code, run.stderr).toBe(0);
    expect(run.lastLine).toMatch(/^[0-9a-f-]{36}$/);
    return name;
  }

  it('creates an account and prints its id alone on the last line; a name that reads the same fails', async () => {
    const name = `Acme ${randomUUID().slice(0, 8)}`;
    const created = await admin('account:create', name);
    expect(created.code, created.stderr).toBe(0);
    const id = created.lastLine;
    const wide = name.replace(/[!-~]/g, (c) => String.fromCharCode(c.charCodeAt(0) + 0xfee0));
    for (const lookalike of [name, name.toUpperCase(), ` ${name.toLowerCase()} `, wide]) {
      expectOperatorMistake(
        await admin('account:create', lookalike),
        new RegExp(`account "${name}" \\(${id}\\) already exists; names are compared ignoring case, letter width and surrounding spaces`),
      );
    }
    expectOperatorMistake(await admin('account:create', randomUUID()), /An account name cannot be a UUID/);
  }, 120_000);

  it('takes an account by its id wherever a command takes its name', async () => {
    const created = await admin('account:create', `by-id-${randomUUID()}`, '--sandbox');
    const id = created.lastLine;
    const key = await admin('key:create', '--account', id, '--sandbox');
    expect(key.code, key.stderr).toBe(0);
    expect(key.lastLine).toMatch(/^svc_test_/);
    expect(JSON.parse((await admin('account:limits', id, '--rate', '30')).lastLine)).toEqual({ monthly_word_limit: null, rate_limit_per_minute: 30 });
    expect(JSON.parse((await admin('account:review-pool', id, '--languages', 'de')).lastLine)).toEqual(['de']);
    expect((await admin('reviewer:create', '--languages', 'de', '--account', id)).stdout).toMatch(/created reviewer [0-9a-f-]{36} of account "by-id-/);
    // Names are found as people read them too.
    expect((await admin('key:create', '--account', created.stdout.match(/"(by-id-[^"]+)"/)![1].toUpperCase(), '--sandbox')).code).toBe(0);
    expectOperatorMistake(await admin('key:create', '--account', randomUUID(), '--sandbox'), /no account has the id [0-9a-f-]{36}, nor that name/);
  }, 180_000);

  it('refuses any key for a signed-up account whose owner has not confirmed the address', async () => {
    const name = `unconfirmed-${randomUUID()}`;
    await app.get(AccountService).create(name, { activated: false, signedUp: true });
    expectOperatorMistake(await admin('key:create', '--account', name, '--sandbox'), /sign-up is not confirmed yet/);
  });

  it('creates a manage key whose secret, on the last line, authenticates over HTTP', async () => {
    const account = await newAccount();
    const run = await admin('key:create', '--account', account, '--manage', '--word-limit', '500', '--rate', '600', '--name', 'bootstrap');
    expect(run.code, run.stderr).toBe(0);
    expect(run.lastLine).toMatch(/^svc_live_/);
    expect(run.lastLine).toMatch(KEY);

    const res = await http(url, 'GET', '/api/v1/keys', { token: run.lastLine });
    expect(res.status).toBe(200);
    expect(res.body.keys).toEqual([
      expect.objectContaining({ name: 'bootstrap', prefix: 'svc_live_', scopes: ['translate', 'manage'], monthly_word_limit: 500, rate_limit_per_minute: 600, hint: run.lastLine.slice(-4) }),
    ]);
  });

  it('creates a sandbox translate key by default scope', async () => {
    const account = await newAccount();
    const run = await admin('key:create', '--sandbox', '--account', account);
    expect(run.code, run.stderr).toBe(0);
    expect(run.lastLine).toMatch(/^svc_test_/);
    // Authenticated (not 401), but a translate key may not manage keys.
    expect((await http(url, 'GET', '/api/v1/keys', { token: run.lastLine })).status).toBe(403);
  });

  it('refuses a key for an account that does not exist, and creates no account', async () => {
    const account = `acme-${randomUUID()}`;
    expectOperatorMistake(await admin('key:create', '--account', account, '--sandbox'), new RegExp(`account "${account}" does not exist; create it first`));
    // Still unknown: account:create makes it now, and only then a key.
    expect((await admin('account:create', account)).code).toBe(0);
    expect((await admin('key:create', '--account', account, '--sandbox')).lastLine).toMatch(/^svc_test_/);
  }, 120_000);

  it('refuses a live key for a sandbox-only account until it is activated, and gives it sandbox keys', async () => {
    const account = `sandbox-${randomUUID()}`;
    expect((await admin('account:create', account, '--sandbox')).stdout).toContain('created sandbox-only account');
    expectOperatorMistake(await admin('key:create', '--account', account), /not activated for production use/);
    expect((await admin('key:create', '--account', account, '--sandbox')).lastLine).toMatch(/^svc_test_/);
  }, 120_000);

  it('sets, shows and clears the account ceilings, printing them on the last line', async () => {
    const account = await newAccount();
    const set = await admin('account:limits', account, '--words', '1000', '--rate', '30');
    expect(set.code, set.stderr).toBe(0);
    expect(JSON.parse(set.lastLine)).toEqual({ monthly_word_limit: 1000, rate_limit_per_minute: 30 });
    expect(JSON.parse((await admin('account:limits', account)).lastLine)).toEqual({ monthly_word_limit: 1000, rate_limit_per_minute: 30 });
    const cleared = await admin('account:limits', account, '--words', 'none');
    expect(JSON.parse(cleared.lastLine)).toEqual({ monthly_word_limit: null, rate_limit_per_minute: 30 });

    // A key's own limit above the ceiling is refused, here as over HTTP.
    await admin('account:limits', account, '--words', '500');
    expectOperatorMistake(await admin('key:create', '--account', account, '--word-limit', '501'), /above the account's ceiling of 500 words a month/);
    expectOperatorMistake(await admin('account:limits', `nosuch-${randomUUID()}`, '--words', '1'), /does not exist/);
  }, 120_000);

  it.each([
    [['key:create'], /--account is required/],
    [['key:create', '--account', 'x', '--bogus'], /Unknown option '--bogus'/],
    [['key:create', '--account', 'x', '--word-limit', 'lots'], /--word-limit must be a whole number/],
    [['key:create', '--account', 'x', '--rate', '0'], /--rate must be a whole number of requests per minute \(at least 1\)/],
    [['account:create'], /exactly one account name/],
    [['account:limits'], /exactly one account name/],
    [['account:limits', 'x', '--words', 'lots'], /--words must be a whole number of words or "none"/],
    [['account:limits', 'x', '--rate', '0'], /--rate must be a whole number of requests per minute or "none" \(at least 1\)/],
    [['reviewer:create'], /--languages is required/],
    [['reviewer:create', '--languages', 'de,xx'], /xx is not an EU language code/],
    [['reviewer:create', '--languages', 'de', '--account', 'no-such-account'], /account "no-such-account" does not exist/],
    [['account:review-pool', 'x'], /--languages is required/],
    [['account:review-pool', 'no-such-account', '--languages', 'de'], /account "no-such-account" does not exist/],
    [['nope'], /unknown admin command "nope"/],
  ])('refuses %j with a message on stderr and exit code 1', async (args, message) => {
    expectOperatorMistake(await admin(...args), message);
  });

  it('creates a reviewer whose token, on the last line, opens the review routes for its languages only', async () => {
    const run = await admin('reviewer:create', '--languages', 'de,FR', '--name', 'Anna');
    expect(run.code, run.stderr).toBe(0);
    expect(run.lastLine).toMatch(/^rvw_[0-9A-Za-z]{40}$/);
    expect(run.stdout).toContain("of the platform's pool (accounts opt in per language with account:review-pool) for de, fr");
    const next = (lang: string) => http(url, 'GET', `/api/v1/review/tasks/next?lang=${lang}`, { token: run.lastLine });
    expect((await next('fr')).status).toBe(200);
    expect((await next('es')).status).toBe(403);

    const id = /created reviewer ([0-9a-f-]{36})/.exec(run.stdout)![1];
    const revoked = await admin('reviewer:revoke', id);
    expect(revoked.code, revoked.stderr).toBe(0);
    expect(revoked.lastLine).toMatch(/^\d{4}-\d\d-\d\dT/);
    expect((await next('fr')).status).toBe(401);
    expectOperatorMistake(await admin('reviewer:revoke', '00000000-0000-4000-8000-000000000000'), /does not exist/);
  });

  it("creates a reviewer of one account, and lets an account open languages to the platform's reviewers", async () => {
    const account = await newAccount();
    const created = await admin('reviewer:create', '--languages', 'pl', '--account', account);
    expect(created.code, created.stderr).toBe(0);
    expect(created.stdout).toContain(`of account "${account}" for pl`);

    const opened = await admin('account:review-pool', account, '--languages', 'pl,DE');
    expect(opened.code, opened.stderr).toBe(0);
    expect(JSON.parse(opened.lastLine)).toEqual(['de', 'pl']);
    expect(JSON.parse((await admin('account:review-pool', account, '--languages', 'none')).lastLine)).toEqual([]);
  }, 120_000);

  it('runs through npm run admin (tools/admin.mjs), which builds, migrates and forwards the exit code', async () => {
    const account = await newAccount();
    const run = await runNode(['tools/admin.mjs', 'key:create', '--account', account, '--sandbox', '--manage']);
    expect(run.code, run.stderr).toBe(0);
    expect(run.lastLine).toMatch(KEY);
    expect((await http(url, 'GET', '/api/v1/keys', { token: run.lastLine })).status).toBe(200);

    expectOperatorMistake(await runNode(['tools/admin.mjs', 'key:create', '--account', 'x', '--word-limit', 'lots']), /--word-limit must be a whole number/);
    expectOperatorMistake(await runNode(['tools/admin.mjs', 'launch:rockets']), /commands: account:create, account:limits, account:review-pool, key:create/);
  }, 120_000);
});
