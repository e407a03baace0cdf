import type { NestFastifyApplication } from '@nestjs/platform-fastify';
import { AccountService, ApiKeyService } from '@platform/auth';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { ActivationService } from '../activation/activation.service';
import { accountWithOwner, startConsole, type TestAccount } from '../console-browser.testing';

describe('console keys and activation over HTTP', () => {
  let app: NestFastifyApplication;
  let url: string;
  let account: TestAccount;

  beforeAll(async () => {
    ({ app, url } = await startConsole({ MAX_KEYS_PER_ACCOUNT: '4' }));
    account = await accountWithOwner(app, url);
  });
  afterAll(() => app?.close());

  it('creates a key whose secret is in that answer only, and never again in any answer', async () => {
    const created = await account.owner.call('POST', '/keys', { name: 'ci', scopes: ['manage'] });
    expect(created.status).toBe(201);
    expect(created.body).toEqual({
      ok: true,
      key: expect.objectContaining({ name: 'ci', prefix: 'svc_test_', sandbox: true, scopes: ['translate', 'manage'], revoked: false }),
      secret: expect.stringMatching(/^svc_test_[0-9A-Za-z]{40}$/),
    });
    const { secret } = created.body;
    expect((await app.get(ApiKeyService).authenticate(secret))?.accountId).toBe(account.accountId);

    const id = created.body.key.id;
    const answers = [
      await account.owner.call('GET', '/keys'),
      await account.owner.call('PATCH', `/keys/${id}`, { monthly_word_limit: 1000 }),
      await account.owner.call('GET', '/me'),
      await account.owner.call('GET', '/users'),
    ];
    for (const res of answers) {
      expect(res.status).toBe(200);
      expect(res.text).not.toContain(secret);
      expect(res.text).not.toContain('"secret"');
    }
    expect(answers[0].body.keys).toEqual([expect.objectContaining({ id, hint: secret.slice(-4) })]);
    expect(answers[1].body.key.monthly_word_limit).toBe(1000);
  });

  it('refuses a key without a name, or named with spaces only, naming the field, and creates none', async () => {
    const before = (await account.owner.call('GET', '/keys')).body.keys.length;
    for (const body of [{}, { name: '' }, { name: '   ' }, { name: null }, { sandbox: true }]) {
      const refused = await account.owner.call('POST', '/keys', body);
      expect(refused.status, JSON.stringify(body)).toBe(422);
      expect(refused.body).toEqual({ error: 'invalid_request', message: expect.stringMatching(/^name is required: give the key a name/) });
    }
    expect((await account.owner.call('POST', '/keys', { name: 'x'.repeat(101) })).body.message).toBe('name must be at most 100 characters');
    expect((await account.owner.call('GET', '/keys')).body.keys).toHaveLength(before);
  });

  it("regenerates and revokes with the key service's rules: the old secret stops at once", async () => {
    const { body } = await account.owner.call('POST', '/keys', { name: 'k' });
    const regenerated = await account.owner.call('POST', `/keys/${body.key.id}/regenerate`);
    expect(regenerated.status).toBe(200);
    expect(regenerated.body.secret).not.toBe(body.secret);
    const keys = app.get(ApiKeyService);
    expect(await keys.authenticate(body.secret)).toBeNull();
    expect(await keys.authenticate(regenerated.body.secret)).not.toBeNull();
    const revoked = await account.owner.call('DELETE', `/keys/${body.key.id}`);
    expect(revoked.body).toMatchObject({ ok: true, key: { id: body.key.id, revoked: true } });
    expect(revoked.text).not.toContain(regenerated.body.secret);
    expect(await keys.authenticate(regenerated.body.secret)).toBeNull();
    expect((await account.owner.call('PATCH', `/keys/${body.key.id}`, { rate_limit_per_minute: 5 })).status).toBe(404);
    expect((await account.owner.call('PATCH', `/keys/${body.key.id}`, {})).body).toEqual({
      error: 'invalid_request',
      message: 'Give monthly_word_limit and/or rate_limit_per_minute',
    });
  });

  it("answers 404 for another account's keys", async () => {
    const other = await accountWithOwner(app, url);
    const { body } = await other.owner.call('POST', '/keys', { name: 'k' });
    for (const [method, path] of [['DELETE', `/keys/${body.key.id}`], ['POST', `/keys/${body.key.id}/regenerate`], ['PATCH', `/keys/${body.key.id}`]] as const) {
      const res = await account.owner.call(method, path, method === 'PATCH' ? { monthly_word_limit: 1 } : undefined);
      expect(res.status, `${method} ${path}`).toBe(404);
      expect(res.body.error).toBe('not_found');
    }
    expect(await app.get(ApiKeyService).authenticate(body.secret)).not.toBeNull();
  });

  it('gives live keys only after an operator activates the account on request', async () => {
    const fresh = await accountWithOwner(app, url);
    const live = await fresh.owner.call('POST', '/keys', { name: 'live', sandbox: false });
    expect(live.status).toBe(403);
    expect(live.body).toEqual({ error: 'forbidden', message: expect.stringContaining('not activated for production use') });

    const { browser: member } = await fresh.join('member');
    expect((await member.call('POST', '/activation', { company: 'Beispiel GmbH', vat_id: 'DE123456789', intended_use: 'shop' })).status).toBe(403);
    expect((await fresh.owner.call('POST', '/activation', { company: 'Beispiel GmbH' })).status).toBe(422);
    const requested = await fresh.owner.call('POST', '/activation', { company: 'Beispiel GmbH', vat_id: 'DE123456789', intended_use: 'Our shop in French' });
    expect(requested.status).toBe(200);
    expect(requested.body.account).toEqual({ id: fresh.accountId, name: fresh.name, activation: 'pending', signup: 'complete' });
    expect((await fresh.owner.call('POST', '/keys', { name: 'live', sandbox: false })).status).toBe(403);

    const accounts = app.get(AccountService);
    await accounts.activate((await accounts.findById(fresh.accountId))!);
    expect((await member.call('GET', '/me')).body.account.activation).toBe('active');
    // Without `sandbox`, an activated account gets a live key.
    const created = await member.call('POST', '/keys', { name: 'k' });
    expect(created.status).toBe(201);
    expect(created.body.secret).toMatch(/^svc_live_/);
    expect((await fresh.owner.call('POST', '/activation', { company: 'x', vat_id: 'DE123456789', intended_use: 'x' })).status).toBe(422);
  });

  it("checks a production request's VAT number against its EU country's format, and keeps it as VIES writes it", async () => {
    const fresh = await accountWithOwner(app, url);
    const request = (vat_id: unknown) => fresh.owner.call('POST', '/activation', { company: 'Exemple SARL', vat_id, intended_use: 'Our shop in German' });
    for (const [vat, message] of [
      ['FR1234', 'vat_id: The VAT number does not have the format of FR numbers: FR followed by 2 letters or digits and 9 digits, e.g. FR12345678901'],
      ['GR123456789', 'vat_id: The VAT number must start with the code of an EU country (Greece’s is EL), e.g. DE123456789 or FR12345678901'],
      ['US123456789', 'vat_id: The VAT number must start with the code of an EU country, e.g. DE123456789 or FR12345678901'],
    ]) {
      const refused = await request(vat);
      expect(refused.status, vat).toBe(422);
      expect(refused.body).toEqual({ error: 'invalid_request', message });
    }
    expect((await request(12345678901)).status).toBe(422);
    expect((await request('fr 12 345 678 901')).status).toBe(200);
    const mine = (await app.get(ActivationService).pending()).find((entry) => entry.account.id === fresh.accountId);
    expect(mine?.request.vatId).toBe('FR12345678901');
  });

  it('holds an account to MAX_KEYS_PER_ACCOUNT and its ceilings, as the public API does', async () => {
    const capped = await accountWithOwner(app, url);
    for (let i = 0; i < 4; i++) expect((await capped.owner.call('POST', '/keys', { name: 'k' })).status).toBe(201);
    const fifth = await capped.owner.call('POST', '/keys', { name: 'k' });
    expect(fifth.status).toBe(422);
    expect(fifth.body).toEqual({ error: 'invalid_request', message: expect.stringMatching(/^An account holds at most 4 keys that are not revoked/) });
  });
});
