import { NestFastifyApplication } from '@nestjs/platform-fastify';
import { WordQuotaService } from '@platform/quota';
import { loadConfig } from '@platform/service-kit';
import { createTestKey, http, testAppEnv, testPrincipal, type TestKey } from '@platform/testing';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { TranslateApiConfig } from '../config/translate-api.config';
import { serveTranslateApi } from '../translate-api.app';

describe('GET /api/v1/usage with a range (history)', () => {
  let app: NestFastifyApplication;
  let url: string;
  let quota: WordQuotaService;

  beforeAll(async () => {
    app = await serveTranslateApi(loadConfig(TranslateApiConfig, testAppEnv({ RATE_LIMIT_PER_MINUTE: '1000' })));
    url = await app.getUrl();
    quota = app.get(WordQuotaService);
  });
  afterAll(() => app.close());

  const history = (key: TestKey, query: string) => http(url, 'GET', `/api/v1/usage?${query}`, { token: key.plainKey });
  const charge = (key: TestKey, at: string, words: number, costCents: number) => quota.charge({ key: testPrincipal(key), words, costCents, at: new Date(at) });
  const figures = (words: number, cost_cents: number, account: [number, number] = [words, cost_cents]) => ({
    words,
    cost_cents,
    account: { words: account[0], cost_cents: account[1] },
  });

  it("lists every UTC day of the range for the key and its account's keys of its mode, refunds taken off", async () => {
    const key = await createTestKey({ sandbox: false });
    const sibling = await createTestKey({ sandbox: false, accountId: key.accountId });
    const sandboxSibling = await createTestKey({ sandbox: true, accountId: key.accountId });
    const stranger = await createTestKey({ sandbox: false });

    await charge(key, '2025-03-01T23:59:59.999Z', 100, 2);
    await charge(key, '2025-03-02T00:00:00.000Z', 50, 1);
    const refunded = await charge(key, '2025-03-03T12:00:00Z', 30, 1);
    await charge(key, '2025-03-05T08:00:00Z', 7, 1);
    await charge(sibling, '2025-03-02T15:00:00Z', 10, 1);
    await charge(sandboxSibling, '2025-03-02T15:00:00Z', 1000, 20);
    await charge(stranger, '2025-03-02T15:00:00Z', 777, 15);
    expect(await quota.refund({ chargeId: refunded.chargeId })).toBe(true);

    const res = await history(key, 'from=2025-03-01&to=2025-03-04');
    expect(res.status).toBe(200);
    expect(res.body).toEqual({
      ok: true,
      granularity: 'day',
      from: '2025-03-01',
      to: '2025-03-04',
      words: 150,
      cost_cents: 3,
      account: { mode: 'live', words: 160, cost_cents: 4 },
      periods: [
        { period: '2025-03-01', ...figures(100, 2) },
        { period: '2025-03-02', ...figures(50, 1, [60, 2]) },
        { period: '2025-03-03', ...figures(0, 0) },
        { period: '2025-03-04', ...figures(0, 0) },
      ],
    });

    // The sibling sees the same account figures, its own as the key's.
    expect((await history(sibling, 'from=2025-03-02&to=2025-03-02')).body.periods).toEqual([{ period: '2025-03-02', ...figures(10, 1, [60, 2]) }]);
    // The sandbox world of the account has only its own charges.
    expect((await history(sandboxSibling, 'from=2025-03-01&to=2025-03-04')).body.account).toEqual({ mode: 'sandbox', words: 1000, cost_cents: 20 });
  });

  it('adds up calendar months across a year boundary, reporting the months of from and to whole', async () => {
    const key = await createTestKey({ sandbox: false });
    await charge(key, '2025-10-31T23:59:59Z', 1, 1);
    await charge(key, '2025-11-01T00:00:00Z', 40, 4);
    await charge(key, '2025-11-30T10:00:00Z', 2, 1);
    await charge(key, '2026-01-31T23:59:59Z', 300, 30);
    await charge(key, '2026-02-28T22:00:00Z', 5, 1);
    await charge(key, '2026-03-01T00:00:00Z', 6000, 60);
    const refunded = await charge(key, '2026-01-15T00:00:00Z', 9, 9);
    await quota.refund({ chargeId: refunded.chargeId });

    const res = await history(key, 'from=2025-11-20&to=2026-02-03&granularity=month');
    expect(res.status).toBe(200);
    expect(res.body).toMatchObject({ granularity: 'month', from: '2025-11-01', to: '2026-02-28', words: 347, cost_cents: 36 });
    expect(res.body.periods).toEqual([
      { period: '2025-11', ...figures(42, 5) },
      { period: '2025-12', ...figures(0, 0) },
      { period: '2026-01', ...figures(300, 30) },
      { period: '2026-02', ...figures(5, 1) },
    ]);
  });

  it("defaults to this month by day, or the last twelve months by month, up to today's", async () => {
    const key = await createTestKey();
    await quota.charge({ key: testPrincipal(key), words: 12, costCents: 1 });
    const today = new Date().toISOString().slice(0, 10);

    const byDay = await history(key, 'granularity=day');
    expect(byDay.status).toBe(200);
    expect(byDay.body).toMatchObject({ from: `${today.slice(0, 7)}-01`, to: today, words: 12, account: { mode: 'sandbox', words: 12 } });
    expect(byDay.body.periods).toHaveLength(Number(today.slice(8)));
    expect(byDay.body.periods.at(-1)).toEqual({ period: today, ...figures(12, 1) });

    const byMonth = await history(key, 'granularity=month');
    expect(byMonth.body.periods).toHaveLength(12);
    expect(byMonth.body.periods.at(-1)).toEqual({ period: today.slice(0, 7), ...figures(12, 1) });
    expect(byMonth.body.periods.slice(0, -1).every((p: { words: number }) => p.words === 0)).toBe(true);

    // Without any of the parameters the answer stays this month's usage with its limits.
    expect((await http(url, 'GET', '/api/v1/usage', { token: key.plainKey })).body).toMatchObject({ month: today.slice(0, 7), words: 12, remaining: expect.any(Number) });
  });

  it('accepts the longest ranges: 400 days, 60 months', async () => {
    const key = await createTestKey();
    expect((await history(key, 'from=2024-01-01&to=2025-02-03')).body.periods).toHaveLength(400);
    expect((await history(key, 'from=2021-01-31&to=2025-12-01&granularity=month')).body.periods).toHaveLength(60);
  });

  it.each([
    ['from=2025-02-30&to=2025-03-01', /^from: "2025-02-30" is not a date; expected YYYY-MM-DD \(UTC\)$/],
    ['from=2025-03-01&to=tomorrow', /^to: "tomorrow" is not a date/],
    ['from=2025-3-1', /^from: "2025-3-1" is not a date/],
    ['from=0000-01-01&to=0000-01-02', /^from: "0000-01-01" is not a date/],
    ['from=2025-03-02&to=2025-03-01', /^from: 2025-03-02 is after to \(2025-03-01\)$/],
    ['from=2024-01-01&to=2025-02-04', /^from, to: 2024-01-01 to 2025-02-04 spans 401 days; granularity=day allows at most 400 \(use granularity=month/],
    ['from=2021-01-01&to=2026-01-01&granularity=month', /^from, to: 2021-01-01 to 2026-01-31 spans 61 months; granularity=month allows at most 60$/],
    ['granularity=week', /granularity must be one of: day, month/],
    ['from=2025-01-01&from=2025-01-02', /from/],
  ])('refuses %s with 422 naming the parameter', async (query, message) => {
    const res = await history(await createTestKey(), query);
    expect(res.status).toBe(422);
    expect(res.body).toEqual({ error: 'unsupported_language', message: expect.stringMatching(message) });
  });

  it('is described in the OpenAPI document with both answers and its parameters', async () => {
    const { body } = await http(url, 'GET', '/openapi.json');
    const operation = body.paths['/api/v1/usage'].get;
    expect(operation.responses['200'].content['application/json'].schema.oneOf).toEqual([
      { $ref: '#/components/schemas/UsageResponseDto' },
      { $ref: '#/components/schemas/UsageHistoryResponseDto' },
    ]);
    expect(Object.keys(operation.responses)).toEqual(expect.arrayContaining(['200', '401', '422', '429']));
    expect(operation.parameters.map((p: { name: string; in: string }) => `${p.in}:${p.name}`)).toEqual(['query:from', 'query:to', 'query:granularity']);
    expect(body.components.schemas.UsageHistoryResponseDto.required).toEqual(
      expect.arrayContaining(['ok', 'granularity', 'from', 'to', 'words', 'cost_cents', 'account', 'periods']),
    );
  });
});
