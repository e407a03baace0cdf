import { NestFastifyApplication } from '@nestjs/platform-fastify';
import { TokenService } from '@platform/image-tokens';
import { loadConfig } from '@platform/service-kit';
import { buildApp, expectOperatorMistake, http, runNode, testAppEnv } from '@platform/testing';
import { randomUUID } from 'node:crypto';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { ImageApiConfig } from '../config/image-api.config';
import { serveImageApi } from '../image-api.app';

const TOKEN = /^img_[0-9A-Za-z]{40}$/;

const admin = (...args: string[]) => runNode(['dist/apps/image-api/main.js', 'admin', ...args]);

describe('operator CLI (built image-api, admin token:create and subscription:link)', () => {
  let app: NestFastifyApplication;
  let url: string;

  beforeAll(async () => {
    await buildApp('image-api');
    app = await serveImageApi(loadConfig(ImageApiConfig, testAppEnv()));
    url = await app.getUrl();
  });
  afterAll(() => app?.close());

  it('prints a token alone on the last line that GET /access-token accepts with the plan limit', async () => {
    const run = await admin('token:create', '--plan', 'starter');
    expect(run.code, run.stderr).toBe(0);
    expect(run.lastLine).toMatch(TOKEN);
    const res = await http(url, 'GET', `/access-token/${run.lastLine}`);
    expect(res.status).toBe(200);
    expect(res.body).toEqual({ api_limit_usage: 0, api_limit_max: 10_000, api_subscription_active: true, api_subscription_premium: true });
  });

  it('applies --limit to the new token', async () => {
    const run = await admin('token:create', '--plan', 'free', '--limit', '25');
    expect(run.code, run.stderr).toBe(0);
    const res = await http(url, 'GET', `/access-token/${run.lastLine}`);
    expect(res.body).toMatchObject({ api_limit_max: 25, api_subscription_premium: false });
  });

  it('links the new subscription to a customer account with --account, and relinks or unlinks it with subscription:link', async () => {
    const tokens = app.get(TokenService);
    const account = randomUUID();
    const created = await admin('token:create', '--plan', 'pro', '--account', account);
    expect(created.code, created.stderr).toBe(0);
    const [, subscription] = created.stdout.match(/created pro subscription (\S+) with the plan limit, linked to account (\S+);/)!;
    expect((await tokens.subscriptionsOf(account)).map((s) => s.id)).toEqual([subscription]);

    const other = randomUUID();
    const linked = await admin('subscription:link', subscription, '--account', other.toUpperCase());
    expect(linked.code, linked.stderr).toBe(0);
    expect(linked.stdout).toContain(`pro subscription ${subscription} is linked to account ${other}: its tokens and conversions show in that account's console`);
    expect(linked.lastLine).toBe(other);
    expect(await tokens.subscriptionsOf(account)).toEqual([]);
    expect(await tokens.subscriptionOf(other, subscription)).toMatchObject({ plan: 'pro', accountId: other });

    const unlinked = await admin('subscription:link', subscription, '--account', 'none');
    expect(unlinked.code, unlinked.stderr).toBe(0);
    expect(unlinked.lastLine).toBe('none');
    expect(await tokens.subscriptionsOf(other)).toEqual([]);
  });

  it.each([
    [['token:create', '--plan', 'free', '--account', 'acme'], /--account must be the id of the customer account \(printed by account:create\), got "acme"/],
    [['subscription:link', '--account', randomUUID()], /give exactly one subscription id/],
    [['subscription:link', randomUUID()], /--account is required/],
    [['subscription:link', randomUUID(), '--account', 'x'], /--account must be .* or none, got "x"/],
    [['subscription:link', randomUUID(), '--account', 'none'], /no image subscription/],
    [['subscription:link', 'sub-1', '--account', 'none'], /no image subscription sub-1/],
    [['token:create'], /--plan is required/],
    [['token:create', '--plan', 'gold'], /--plan must be one of free, starter, pro, business/],
    [['token:create', '--plan', 'pro', '--limit', 'lots'], /--limit must be a whole number/],
    [['token:create', '--plan', 'pro', '--bogus'], /Unknown option '--bogus'/],
    [['nope'], /unknown admin command "nope"/],
  ])('refuses %j with a message on stderr and exit code 1', async (args, message) => {
    const run = await admin(...args);
    expectOperatorMistake(run, message);
  });
});
