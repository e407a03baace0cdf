import { describe, expect, inject, it } from 'vitest';
import { SENTENCE, SENTENCE_WORDS, translate, translationApi } from './translation.client';

const { manageKey } = inject('credentials');

const translateWith = async (key: string) => (await translate(key, { source: 'en', target: 'es', texts: [SENTENCE] })).response;

describe('translate-api: keys and usage', () => {
  let id: string;
  let secret: string;

  it('lists the keys of the account, the calling one among them', async () => {
    const res = await translationApi('GET', '/keys', manageKey);
    expect(res.status).toBe(200);
    expect(res.body.ok).toBe(true);
    expect(res.body.keys).toEqual([
      expect.objectContaining({ prefix: 'svc_test_', hint: manageKey.slice(-4), sandbox: true, scopes: expect.arrayContaining(['manage']), revoked: false }),
    ]);
  });

  it('creates a key whose secret is shown once and translates', async () => {
    const res = await translationApi('POST', '/keys', manageKey, { json: { name: 'ci', monthly_word_limit: 10_000 } });
    expect(res.status).toBe(201);
    expect(res.body).toEqual({
      ok: true,
      key: {
        id: expect.stringMatching(/^[0-9a-f-]{36}$/),
        name: 'ci',
        prefix: 'svc_test_',
        hint: res.body.secret.slice(-4),
        sandbox: true,
        scopes: ['translate'],
        monthly_word_limit: 10_000,
        rate_limit_per_minute: null,
        created_at: expect.any(String),
        revoked: false,
        last_used_at: null,
        previous_secret_expires_at: null,
      },
      secret: expect.stringMatching(/^svc_test_[A-Za-z0-9]{40}$/),
    });
    ({ id } = res.body.key);
    ({ secret } = res.body);
    expect((await translateWith(secret)).status).toBe(200);
  });

  it("reports the new key's usage of this month against its limit", async () => {
    const res = await translationApi('GET', '/usage', secret);
    expect(res.status).toBe(200);
    expect(res.body).toEqual({
      ok: true,
      month: new Date().toISOString().slice(0, 7),
      words: SENTENCE_WORDS,
      cost_cents: 1,
      limit: 10_000,
      remaining: 10_000 - SENTENCE_WORDS,
      // All sandbox keys of the account together.
      account: { mode: 'sandbox', words: expect.any(Number), cost_cents: expect.any(Number), limit: expect.any(Number), remaining: expect.any(Number) },
    });
  });

  it('refuses key management to a key without the manage scope', async () => {
    const res = await translationApi('GET', '/keys', secret);
    expect(res.status).toBe(403);
    expect(res.body).toMatchObject({ error: 'forbidden' });
  });

  it("changes a key's rate limit, effective with the next request", async () => {
    const res = await translationApi('PATCH', `/keys/${id}`, manageKey, { json: { rate_limit_per_minute: 120 } });
    expect(res.status).toBe(200);
    expect(res.body.key).toMatchObject({ id, rate_limit_per_minute: 120, monthly_word_limit: 10_000 });
    expect((await translationApi('GET', '/usage', secret)).headers.get('ratelimit-policy')).toBe('"default";q=120;w=60');
  });

  it('regenerates a secret: the old one stops working at once', async () => {
    const res = await translationApi('POST', `/keys/${id}/regenerate`, manageKey);
    expect(res.status).toBe(200);
    expect(res.body.key).toMatchObject({ id, rate_limit_per_minute: 120 });
    expect(res.body.secret).not.toBe(secret);
    expect((await translateWith(secret)).status).toBe(401);
    secret = res.body.secret;
    expect((await translateWith(secret)).status).toBe(200);
  });

  it('revokes a key', async () => {
    const res = await translationApi('DELETE', `/keys/${id}`, manageKey);
    expect(res.status).toBe(200);
    expect(res.body.key).toMatchObject({ id, revoked: true });
    expect((await translateWith(secret)).status).toBe(401);
  });
});
