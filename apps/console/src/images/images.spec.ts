import type { NestFastifyApplication } from '@nestjs/platform-fastify';
import { recentMonths, TokenService, usageMonth } from '@platform/image-tokens';
import { loadConfig } from '@platform/service-kit';
import { testAppEnv, testEnv } from '@platform/testing';
import { randomUUID } from 'node:crypto';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { ConsoleConfig } from '../config/console.config';
import { accountWithOwner, sql, startConsole, type TestAccount } from '../console-browser.testing';

describe('console images over HTTP', () => {
  let app: NestFastifyApplication;
  let url: string;
  let tokens: TokenService;
  let account: TestAccount;
  let subscription: string;
  let firstToken: string;

  beforeAll(async () => {
    ({ app, url } = await startConsole({ IMAGE_DATABASE_URL: testEnv.databaseUrl, PLAN_LIMIT_STARTER: '700' }));
    tokens = app.get(TokenService);
    account = await accountWithOwner(app, url);
    ({ subscriptionId: subscription, token: firstToken } = await tokens.create('starter', null, account.accountId));
    await tokens.consume(subscription, 700, 3);
  });
  afterAll(() => app?.close());

  const path = (id = subscription) => `/images/subscriptions/${id}`;

  it("lists the account's linked subscriptions with this month's conversions against the plan limit, and no one else's", async () => {
    const override = await tokens.create('free', 42, account.accountId);
    await tokens.create('business', null, randomUUID());
    await tokens.create('pro');
    const res = await account.owner.call('GET', '/images/subscriptions');
    expect(res.status).toBe(200);
    expect(res.body).toEqual({
      ok: true,
      subscriptions: [
        { id: subscription, plan: 'starter', premium: true, active: true, monthly_limit: 700, month: usageMonth(), conversions: 3, created_at: expect.any(String) },
        { id: override.subscriptionId, plan: 'free', premium: false, active: true, monthly_limit: 42, month: usageMonth(), conversions: 0, created_at: expect.any(String) },
      ],
    });
  });

  it('creates a token shown once, lists tokens by hint only, and revokes one so the image service refuses it', async () => {
    const created = await account.owner.call('POST', `${path()}/tokens`);
    expect(created.status).toBe(201);
    expect(created.body).toEqual({
      ok: true,
      token: { id: expect.any(String), prefix: 'img_', hint: created.body.secret.slice(-4), created_at: expect.any(String), revoked_at: null, last_used_at: null },
      secret: expect.stringMatching(/^img_[0-9A-Za-z]{40}$/),
    });
    const { secret } = created.body;
    expect(await tokens.authenticate(secret)).toMatchObject({ subscriptionId: subscription, plan: 'starter', limit: 700 });

    const listed = await account.owner.call('GET', `${path()}/tokens`);
    expect(listed.status).toBe(200);
    expect(listed.body.tokens).toEqual([
      expect.objectContaining({ hint: firstToken.slice(-4), revoked_at: null }),
      expect.objectContaining({ id: created.body.token.id, hint: secret.slice(-4), revoked_at: null }),
    ]);
    expect(listed.text).not.toContain(secret);
    expect(listed.text).not.toContain(firstToken);

    const revoked = await account.owner.call('DELETE', `${path()}/tokens/${created.body.token.id}`);
    expect(revoked.status).toBe(200);
    expect(revoked.body.token).toMatchObject({ id: created.body.token.id, revoked_at: expect.any(String) });
    expect(await tokens.authenticate(secret)).toBeNull();
    const again = await account.owner.call('DELETE', `${path()}/tokens/${created.body.token.id}`);
    expect(again.body.token.revoked_at).toBe(revoked.body.token.revoked_at);
    expect(await tokens.authenticate(firstToken)).not.toBeNull();
  });

  it('answers conversions per month for the last 12 months, oldest first', async () => {
    const months = recentMonths(12);
    await sql('INSERT INTO image.monthly_usage (subscription_id, month, conversions) VALUES ($1, $2, 250), ($1, $3, 9)', [subscription, months[0], usageMonthBefore(months[0])]);
    const res = await account.owner.call('GET', `${path()}/usage`);
    expect(res.status).toBe(200);
    expect(res.body.monthly_limit).toBe(700);
    expect(res.body.months).toHaveLength(12);
    expect(res.body.months.map((m: { month: string }) => m.month)).toEqual(months);
    expect(res.body.months[0]).toEqual({ month: months[0], conversions: 250 });
    expect(res.body.months[11]).toEqual({ month: usageMonth(), conversions: 3 });
    expect(res.body.months.slice(1, 11).every((m: { conversions: number }) => m.conversions === 0)).toBe(true);
  });

  it("answers 404 for another account's, an unlinked and an unknown subscription, and for another subscription's token", async () => {
    const other = await accountWithOwner(app, url);
    const theirs = await tokens.create('pro', null, other.accountId);
    const unlinked = await tokens.create('pro');
    const [theirToken] = await tokens.tokensOf(other.accountId, theirs.subscriptionId);
    for (const id of [theirs.subscriptionId, unlinked.subscriptionId, randomUUID(), 'not-a-uuid']) {
      for (const [method, suffix] of [['GET', '/tokens'], ['GET', '/usage'], ['POST', '/tokens'], ['DELETE', `/tokens/${theirToken.id}`]] as const) {
        const res = await account.owner.call(method, `${path(id)}${suffix}`);
        expect(res.status, `${method} ${suffix} of ${id}`).toBe(404);
        expect(res.body).toEqual({ error: 'not_found', message: `Image subscription ${id} not found` });
      }
    }
    const crossed = await account.owner.call('DELETE', `${path()}/tokens/${theirToken.id}`);
    expect(crossed.status).toBe(404);
    expect(crossed.body).toEqual({ error: 'not_found', message: `Access token ${theirToken.id} not found` });
    expect(await tokens.authenticate(theirs.token)).not.toBeNull();
  });

  it('lets a member read, create and revoke tokens; refuses a reviewer with 403 and calls without the CSRF token', async () => {
    const { browser: member } = await account.join('member');
    expect((await member.call('GET', '/images/subscriptions')).status).toBe(200);
    const created = await member.call('POST', `${path()}/tokens`);
    expect(created.status).toBe(201);
    expect((await member.call('DELETE', `${path()}/tokens/${created.body.token.id}`)).status).toBe(200);

    const { browser: reviewer } = await account.join('reviewer');
    for (const [method, route] of [['GET', '/images/subscriptions'], ['GET', `${path()}/tokens`], ['GET', `${path()}/usage`], ['POST', `${path()}/tokens`]] as const) {
      const res = await reviewer.call(method, route);
      expect(res.status, `${method} ${route}`).toBe(403);
      expect(res.body.error).toBe('forbidden');
    }

    const before = (await tokens.tokensOf(account.accountId, subscription)).length;
    const noCsrf = await member.call('POST', `${path()}/tokens`, undefined, { csrf: false });
    expect(noCsrf.status).toBe(403);
    expect(noCsrf.body.error).toBe('csrf_token_invalid');
    const [live] = (await tokens.tokensOf(account.accountId, subscription)).filter((t) => !t.revokedAt);
    expect((await member.call('DELETE', `${path()}/tokens/${live.id}`, undefined, { csrf: false })).status).toBe(403);
    expect(await tokens.tokensOf(account.accountId, subscription)).toHaveLength(before);
    expect((await tokens.tokensOf(account.accountId, subscription)).find((t) => t.id === live.id)?.revokedAt).toBeNull();
  });

  it('holds a subscription to 20 tokens that are not revoked', async () => {
    const { subscriptionId } = await tokens.create('free', null, account.accountId);
    const answers = await Promise.all(Array.from({ length: 21 }, () => account.owner.call('POST', `${path(subscriptionId)}/tokens`)));
    expect(answers.map((res) => res.status).sort()).toEqual([...Array(19).fill(201), 422, 422]);
    expect(answers.find((res) => res.status === 422)!.body).toEqual({
      error: 'invalid_request',
      message: 'A subscription holds at most 20 tokens that are not revoked; revoke one first',
    });
  });
});

describe('console without an image database', () => {
  let app: NestFastifyApplication;
  let url: string;

  beforeAll(async () => {
    ({ app, url } = await startConsole());
  });
  afterAll(() => app?.close());

  it('answers images_not_connected on every images route, never a 500', async () => {
    const { owner } = await accountWithOwner(app, url);
    const id = randomUUID();
    for (const [method, route] of [['GET', ''], ['GET', `/${id}/tokens`], ['GET', `/${id}/usage`], ['POST', `/${id}/tokens`], ['DELETE', `/${id}/tokens/${id}`]] as const) {
      const res = await owner.call(method, `/images/subscriptions${route}`);
      expect(res.status, `${method} ${route}`).toBe(404);
      expect(res.body).toEqual({ error: 'images_not_connected', message: expect.stringContaining('IMAGE_DATABASE_URL') });
    }
  });

  it('refuses an IMAGE_DATABASE_URL that is not a postgres URL at start', () => {
    expect(() => loadConfig(ConsoleConfig, testAppEnv({ IMAGE_DATABASE_URL: 'mysql://db/images' }))).toThrow(/IMAGE_DATABASE_URL must be a postgres:\/\/ URL/);
  });
});

/** The month before `month` (YYYY-MM): outside the 12 months answered. */
function usageMonthBefore(month: string): string {
  const [year, m] = month.split('-').map(Number);
  return usageMonth(new Date(Date.UTC(year, m - 2, 1)));
}
