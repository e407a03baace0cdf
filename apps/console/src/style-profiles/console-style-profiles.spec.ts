import type { NestFastifyApplication } from '@nestjs/platform-fastify';
import { DEFAULT_TYPOGRAPHY } from '@platform/translation-pipeline';
import { randomUUID } from 'node:crypto';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { accountWithOwner, startConsole, type TestAccount } from '../console-browser.testing';

describe('console style profiles over HTTP', () => {
  let app: NestFastifyApplication;
  let url: string;
  let account: TestAccount;

  beforeAll(async () => {
    ({ app, url } = await startConsole());
    account = await accountWithOwner(app, url);
  });
  afterAll(() => app?.close());

  it('creates, lists in its mode only, shows, replaces and deletes a profile', async () => {
    const created = await account.owner.call('POST', '/style-profiles?mode=sandbox', { name: 'Brand', do_not_translate: ['Notion', { term: 'windows', case_sensitive: false }], notes: 'Tutoiement.' });
    expect(created.status).toBe(201);
    expect(created.body).toMatchObject({
      ok: true,
      id: expect.any(String),
      name: 'Brand',
      do_not_translate: [
        { term: 'Notion', case_sensitive: true },
        { term: 'windows', case_sensitive: false },
      ],
      typography: DEFAULT_TYPOGRAPHY,
      formality: 'default',
      notes: 'Tutoiement.',
    });
    const { id } = created.body;

    expect((await account.owner.call('GET', '/style-profiles?mode=sandbox')).body.style_profiles.map((profile: { id: string }) => profile.id)).toEqual([id]);
    expect((await account.owner.call('GET', '/style-profiles?mode=live')).body).toEqual({ ok: true, style_profiles: [] });
    expect((await account.owner.call('GET', `/style-profiles/${id}?mode=live`)).status).toBe(404);

    const replaced = await account.owner.call('PUT', `/style-profiles/${id}?mode=sandbox`, { name: 'Brand', typography: { quotes: false }, formality: 'less', default: true });
    expect(replaced.body).toMatchObject({ id, do_not_translate: [], typography: { ...DEFAULT_TYPOGRAPHY, quotes: false }, formality: 'less', default: true });
    expect((await account.owner.call('GET', `/style-profiles/${id}?mode=sandbox`)).body.formality).toBe('less');

    expect((await account.owner.call('DELETE', `/style-profiles/${id}?mode=sandbox`)).body).toEqual({ ok: true });
    expect((await account.owner.call('GET', `/style-profiles/${id}?mode=sandbox`)).status).toBe(404);
  });

  it('refuses what the public API refuses, with the console envelope, and other accounts\u2019 profiles with 404', async () => {
    for (const [body, status, message] of [
      [{ name: 'x', typography: { smart_quotes: true } }, 422, /unknown rule "smart_quotes"/],
      [{ name: 'x', do_not_translate: ['a\u0000b'] }, 422, /control character/],
      [{ name: 'x', do_not_translate: [''] }, 422, /do_not_translate\[0\] is empty/],
      [{ name: 'x', do_not_translate: Array.from({ length: 1_001 }, (_, i) => `t${i}`) }, 413, /at most 1000/],
      [{ name: 'x', glossary: randomUUID() }, 422, /not one of your glossaries/],
    ] as const) {
      const res = await account.owner.call('POST', '/style-profiles?mode=sandbox', body);
      expect(res.status, JSON.stringify(body).slice(0, 80)).toBe(status);
      expect(res.body.message).toMatch(message);
    }
    const { id } = (await account.owner.call('POST', '/style-profiles?mode=sandbox', { name: 'Mine' })).body;
    const other = await accountWithOwner(app, url);
    for (const method of ['GET', 'PUT', 'DELETE']) {
      const res = await other.owner.call(method, `/style-profiles/${id}?mode=sandbox`, method === 'PUT' ? { name: 'Theirs' } : undefined);
      expect(res).toMatchObject({ status: 404, body: { error: 'not_found' } });
    }
    expect((await account.owner.call('GET', '/style-profiles')).status).toBe(422);
  });

  it('is for owners and members, not reviewers', async () => {
    const { browser } = await account.join('reviewer', { languages: ['fr'] });
    expect((await browser.call('GET', '/style-profiles?mode=sandbox')).status).toBe(403);
  });
});
