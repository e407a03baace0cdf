import { NestFastifyApplication } from '@nestjs/platform-fastify';
import { loadConfig } from '@platform/service-kit';
import { createTestKey, http, testAppEnv } from '@platform/testing';
import { randomUUID } from 'node:crypto';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { TranslateApiConfig } from '../config/translate-api.config';
import { serveTranslateApi } from '../translate-api.app';

type Options = Parameters<typeof http>[3];

describe('style profiles API', () => {
  let app: NestFastifyApplication;
  let url: string;

  beforeAll(async () => {
    app = await serveTranslateApi(loadConfig(TranslateApiConfig, testAppEnv()));
    url = await app.getUrl();
  });
  afterAll(() => app.close());

  /** A fresh account (or another mode of one), so that listings and limits see only this test's profiles. */
  async function account(options: { accountId?: string; sandbox?: boolean } = {}) {
    const { plainKey, accountId } = await createTestKey({ rateLimitPerMinute: 10_000, ...options });
    const call = (method: string, path = '', more: Options = {}) => http(url, method, `/api/v1/style-profiles${path}`, { token: plainKey, ...more });
    const api = (method: string, path: string, json?: unknown) => http(url, method, `/api/v1${path}`, { token: plainKey, json });
    return { accountId, plainKey, call, api };
  }
  const brands = { name: 'Brands', do_not_translate: ['Apple Pay', { term: 'notion', case_sensitive: false }, { term: 'Windows', case_sensitive: true }] };
  const everyRule = { quotes: true, french_spacing: true, inverted_marks: true, apostrophe: true };

  it('creates a profile with its defaults, answers its id, and lists, shows, replaces and deletes it', async () => {
    const { call } = await account();
    const created = await call('POST', '', { json: brands });
    expect(created.status).toBe(201);
    expect(created.body).toEqual({
      ok: true,
      id: expect.any(String),
      name: 'Brands',
      default: false,
      do_not_translate: [
        { term: 'Apple Pay', case_sensitive: true },
        { term: 'notion', case_sensitive: false },
        { term: 'Windows', case_sensitive: true },
      ],
      typography: everyRule,
      formality: 'default',
      glossary: null,
      memory: null,
      notes: '',
      created_at: expect.any(String),
      updated_at: expect.any(String),
    });
    const { id, ...profile } = created.body;

    expect((await call('GET', `/${id}`)).body).toEqual(created.body);
    expect((await call('GET')).body).toEqual({ ok: true, style_profiles: [{ id, ...profile, ok: undefined }] });

    const replaced = await call('PUT', `/${id}`, { json: { name: 'Formal FR', typography: { french_spacing: false }, formality: 'more', notes: 'Vouvoyez le lecteur.' } });
    expect(replaced.status).toBe(200);
    expect(replaced.body).toMatchObject({
      id,
      name: 'Formal FR',
      do_not_translate: [],
      typography: { ...everyRule, french_spacing: false },
      formality: 'more',
      notes: 'Vouvoyez le lecteur.',
    });
    expect((await call('GET', `/${id}`)).body.typography.french_spacing).toBe(false);

    expect((await call('DELETE', `/${id}`)).body).toEqual({ ok: true });
    expect((await call('GET', `/${id}`)).status).toBe(404);
    expect((await call('DELETE', `/${id}`)).status).toBe(404);
    expect((await call('GET')).body.style_profiles).toEqual([]);
  });

  it("takes the mode's own glossary and memory, and forgets a glossary once it is deleted", async () => {
    const { call, api } = await account();
    const glossary = (await api('POST', '/glossaries', { name: 'g', source: 'en', entries: [{ term: 'sofa', translations: { es: 'diván' } }] })).body.glossary.id;
    const memory = (await api('POST', '/memories', { name: 'ui', source: 'en' })).body.memory.id;
    const created = await call('POST', '', { json: { name: 'With defaults', glossary, memory } });
    expect(created.status).toBe(201);
    expect(created.body).toMatchObject({ glossary, memory });

    await api('DELETE', `/glossaries/${glossary}`);
    expect((await call('GET', `/${created.body.id}`)).body).toMatchObject({ glossary: null, memory });
  });

  it('keeps one default profile per account and mode', async () => {
    const { call } = await account();
    const first = (await call('POST', '', { json: { name: 'First', default: true } })).body;
    expect(first.default).toBe(true);
    const second = (await call('POST', '', { json: { name: 'Second', default: true } })).body;
    expect(second.default).toBe(true);
    expect((await call('GET')).body.style_profiles.map((profile: { name: string; default: boolean }) => [profile.name, profile.default])).toEqual([
      ['First', false],
      ['Second', true],
    ]);
  });

  it("answers 404 for another account's profile, the other mode's, and ids that are not ids", async () => {
    const owner = await account();
    const { id } = (await owner.call('POST', '', { json: brands })).body;
    const stranger = await account();
    const live = await account({ accountId: owner.accountId, sandbox: false });

    for (const { call } of [stranger, live]) {
      for (const [method, json] of [['GET'], ['PUT', brands], ['DELETE']] as const) {
        const res = await call(method, `/${id}`, { json });
        expect(res.status).toBe(404);
        expect(res.body).toEqual({ error: 'not_found', message: `Style profile ${id} not found` });
      }
    }
    expect((await owner.call('GET', '/not-a-uuid')).status).toBe(404);
    expect((await owner.call('GET', `/${randomUUID()}`)).body.error).toBe('not_found');
    expect((await owner.call('GET', `/${id}`)).status).toBe(200);
  });

  it('refuses bad input with the documented envelope, never a 500', async () => {
    const { call, api, accountId } = await account();
    const other = await account();
    const live = await account({ accountId, sandbox: false });
    const foreignGlossary = (await other.api('POST', '/glossaries', { name: 'g', source: 'en', entries: [{ term: 'a', translations: { es: 'b' } }] })).body.glossary.id;
    const liveMemory = (await live.api('POST', '/memories', { name: 'live' })).body.memory.id;
    expect((await api('GET', '/memories')).status).toBe(200);

    const cases: [unknown, number, RegExp][] = [
      [{ name: 'x', typography: { smart_quotes: true } }, 422, /unknown rule "smart_quotes".*quotes, french_spacing, inverted_marks, apostrophe/],
      [{ name: 'x', typography: { quotes: 'yes' } }, 422, /typography\.quotes must be true or false/],
      [{ name: 'x', typography: ['quotes'] }, 422, /typography must be an object/],
      [{ name: 'x', do_not_translate: Array.from({ length: 1_001 }, (_, i) => `Brand${i}`) }, 413, /1001 terms; a profile holds at most 1000/],
      [{ name: 'x', do_not_translate: ['Apple\u0000Pay'] }, 422, /do_not_translate\[0\] contains a control character \(a NUL/],
      [{ name: 'x', do_not_translate: ['Notion', '  '] }, 422, /do_not_translate\[1\] is empty/],
      [{ name: 'x', do_not_translate: [{ term: '' }] }, 422, /do_not_translate\[0\] is empty/],
      [{ name: 'x', do_not_translate: [{ term: 'A', case: true }] }, 422, /unknown field "case"/],
      [{ name: 'x', do_not_translate: [{ term: 'A', case_sensitive: 'no' }] }, 422, /case_sensitive must be true or false/],
      [{ name: 'x', do_not_translate: [42] }, 422, /must be a string or \{term, case_sensitive\}/],
      [{ name: 'x', do_not_translate: ['Notion', { term: 'notion', case_sensitive: false }, { term: 'NOTION', case_sensitive: false }] }, 422, /"NOTION" repeats do_not_translate\[1\]/],
      [{ name: 'x', do_not_translate: 'Notion' }, 422, /do_not_translate must be a list/],
      [{ name: 'x', formality: 'casual' }, 422, /formality must be one of default, more, less/],
      [{ name: '' }, 422, /name must not be empty/],
      [{ name: 'x', tone: 'warm' }, 422, /tone should not exist/],
      [{ name: 'x', glossary: foreignGlossary }, 422, /not one of your glossaries in this mode/],
      [{ name: 'x', memory: liveMemory }, 422, /not one of your memories in this mode/],
      [{ name: 'x', notes: 'a\u0000b' }, 422, /notes contain a NUL/],
    ];
    for (const [json, status, message] of cases) {
      const res = await call('POST', '', { json });
      expect({ json, status: res.status }).toEqual({ json, status });
      expect(res.body.error).toBe(status === 413 ? 'payload_too_large' : 'unsupported_language');
      expect(res.body.message).toMatch(message);
    }
    expect((await call('GET')).body.style_profiles).toEqual([]);
  });

  it('holds at most 20 profiles per account and mode', async () => {
    const { call, accountId } = await account();
    for (let i = 0; i < 20; i++) expect((await call('POST', '', { json: { name: `p${i}` } })).status).toBe(201);
    const over = await call('POST', '', { json: { name: 'one too many' } });
    expect(over.status).toBe(422);
    expect(over.body.message).toMatch(/at most 20 sandbox style profiles/);
    // The other mode has its own 20.
    expect((await (await account({ accountId, sandbox: false })).call('POST', '', { json: { name: 'live' } })).status).toBe(201);
  });
});
