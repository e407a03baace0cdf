import type { NestFastifyApplication } from '@nestjs/platform-fastify';
import { AccountService } from '@platform/auth';
import { WordQuotaService } from '@platform/quota';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { accountWithOwner, Browser, startConsole, type TestAccount } from '../console-browser.testing';
import { keyOf } from '../customer-area.testing';

describe('console usage over HTTP', () => {
  let app: NestFastifyApplication;
  let url: string;
  let account: TestAccount;

  beforeAll(async () => {
    ({ app, url } = await startConsole({ SANDBOX_MONTHLY_WORDS: '1000' }));
    account = await accountWithOwner(app, url, { activated: true });
  });
  afterAll(() => app?.close());

  const today = () => new Date().toISOString().slice(0, 10);
  const thisMonth = () => today().slice(0, 7);

  it("shows this month's words per key and for the mode, per day and per month, refunds taken off", async () => {
    const quota = app.get(WordQuotaService);
    const first = await keyOf(app, account, { sandbox: true, name: 'first', monthly_word_limit: 300 });
    const second = await keyOf(app, account, { sandbox: true, name: 'second' });
    const live = await keyOf(app, account, { sandbox: false });
    await quota.charge({ key: first, words: 120, costCents: 3 });
    await quota.charge({ key: second, words: 30, costCents: 1 });
    const refunded = await quota.charge({ key: second, words: 50, costCents: 2 });
    await quota.refund({ chargeId: refunded.chargeId });
    await quota.charge({ key: live, words: 7, costCents: 1 });
    const lastYear = new Date();
    lastYear.setUTCMonth(lastYear.getUTCMonth() - 11, 1);
    await quota.charge({ key: first, words: 40, costCents: 1, at: lastYear });

    const res = await account.owner.call('GET', '/usage?mode=sandbox');
    expect(res.status).toBe(200);
    expect(res.body).toMatchObject({ ok: true, mode: 'sandbox', month: thisMonth(), account: { words: 150, cost_cents: 4, limit: 1000, remaining: 850 } });
    expect(res.body.keys).toEqual([
      expect.objectContaining({ id: first.keyId, name: 'first', prefix: 'svc_test_', revoked: false, words: 120, cost_cents: 3, limit: 300, remaining: 180 }),
      expect.objectContaining({ id: second.keyId, name: 'second', words: 30, cost_cents: 1, limit: 1000, remaining: 850 }),
    ]);
    expect(res.body.days).toHaveLength(Number(today().slice(8)));
    expect(res.body.days.at(-1)).toEqual({ period: today(), words: 150, cost_cents: 4 });
    expect(res.body.months).toHaveLength(12);
    expect(res.body.months[0]).toEqual({ period: lastYear.toISOString().slice(0, 7), words: 40, cost_cents: 1 });
    expect(res.body.months[11]).toEqual({ period: thisMonth(), words: 150, cost_cents: 4 });

    const liveUsage = await account.owner.call('GET', '/usage?mode=live');
    expect(liveUsage.body).toMatchObject({ mode: 'live', account: { words: 7, limit: null, remaining: null } });
    expect(liveUsage.body.keys.map((key: { id: string }) => key.id)).toEqual([live.keyId]);
  });

  it("holds live keys to the operator's ceiling and sees no other account's words", async () => {
    const other = await accountWithOwner(app, url, { activated: true });
    const accounts = app.get(AccountService);
    await accounts.setLimits((await accounts.findById(other.accountId))!, { monthlyWordLimit: 500, rateLimitPerMinute: null });
    const key = await keyOf(app, other, { sandbox: false });
    await app.get(WordQuotaService).charge({ key: { ...key, account: { monthlyWordLimit: 500, rateLimitPerMinute: null } }, words: 20, costCents: 1 });
    const res = await other.owner.call('GET', '/usage?mode=live');
    expect(res.body.account).toEqual({ words: 20, cost_cents: 1, limit: 500, remaining: 480 });
    expect(res.body.keys[0]).toMatchObject({ words: 20, limit: 500, remaining: 480 });
    const fresh = await accountWithOwner(app, url);
    const empty = await fresh.owner.call('GET', '/usage?mode=sandbox');
    expect(empty.body).toMatchObject({ account: { words: 0, cost_cents: 0 }, keys: [] });
    expect(empty.body.months.every((month: { words: number }) => month.words === 0)).toBe(true);
  });

  it('lets members read it, refuses reviewers and the signed-out, and needs a known mode', async () => {
    const { browser: member } = await account.join('member');
    expect((await member.call('GET', '/usage?mode=sandbox')).status).toBe(200);
    const { browser: reviewer } = await account.join('reviewer');
    const refused = await reviewer.call('GET', '/usage?mode=sandbox');
    expect(refused.status).toBe(403);
    expect(refused.body).toEqual({ error: 'forbidden', message: 'This needs the role owner or member; you are reviewer' });
    expect((await new Browser(url).call('GET', '/usage?mode=sandbox')).status).toBe(401);
    for (const query of ['', '?mode=test']) {
      const res = await account.owner.call('GET', `/usage${query}`);
      expect(res.status).toBe(422);
      expect(res.body).toEqual({ error: 'invalid_request', message: 'mode must be one of: sandbox, live' });
    }
  });
});
