import { NestFastifyApplication } from '@nestjs/platform-fastify';
import { loadConfig } from '@platform/service-kit';
import { createTestKey, http, testAppEnv } from '@platform/testing';
import { randomUUID } from 'node:crypto';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { TranslateApiConfig } from '../config/translate-api.config';
import { serveTranslateApi } from '../translate-api.app';

type Options = Parameters<typeof http>[3];

describe('glossaries API', () => {
  let app: NestFastifyApplication;
  let url: string;

  beforeAll(async () => {
    app = await serveTranslateApi(loadConfig(TranslateApiConfig, testAppEnv()));
    url = await app.getUrl();
  });
  afterAll(() => app.close());

  /** A fresh account, so that listings and limits see only this test's glossaries. */
  async function account() {
    const { plainKey, accountId } = await createTestKey({ rateLimitPerMinute: 10_000 });
    const call = (method: string, path = '', options: Options = {}) => http(url, method, `/api/v1/glossaries${path}`, { token: plainKey, ...options });
    return { accountId, plainKey, call };
  }
  const csv = (body: string | Uint8Array, contentType = 'text/csv'): Options => ({ body, headers: { 'content-type': contentType } });
  const terms = { name: 'Product terms', source: 'en', entries: [{ term: 'cloud', translations: { de: 'Wolke', fr: 'nuage' } }, { term: 'server', translations: { de: 'Server' } }] };

  it('creates a glossary from JSON and shows it with its entries', async () => {
    const { call } = await account();
    const created = await call('POST', '', { json: terms });
    expect(created.status).toBe(201);
    expect(created.body).toEqual({
      ok: true,
      glossary: { id: expect.any(String), name: 'Product terms', source: 'en', targets: ['de', 'fr'], entry_count: 2, created_at: expect.any(String), updated_at: expect.any(String) },
    });
    const { id } = created.body.glossary;

    const shown = await call('GET', `/${id}`);
    expect(shown.status).toBe(200);
    expect(shown.body).toEqual({ ok: true, glossary: { ...created.body.glossary, entries: terms.entries } });

    const listed = await call('GET');
    expect(listed.body).toEqual({ ok: true, glossaries: [created.body.glossary] });
  });

  it('reads CSV with a BOM, CRLF and quoted commas, line breaks and quotes, and gives it back as CSV', async () => {
    const { call } = await account();
    const upload = '\uFEFFterm,fr,de\r\n"sign in, now","connexion",jetzt anmelden\r\n"two\nlines","deux ""lignes""",\r\nplain,simple,einfach\r\n';
    const created = await call('POST', '?name=Mixed&source=en', csv(upload, 'text/csv; charset=utf-8'));
    expect(created.status).toBe(201);
    expect(created.body.glossary).toMatchObject({ name: 'Mixed', source: 'en', targets: ['de', 'fr'], entry_count: 3 });
    const { id } = created.body.glossary;

    expect((await call('GET', `/${id}`)).body.glossary.entries).toEqual([
      { term: 'sign in, now', translations: { de: 'jetzt anmelden', fr: 'connexion' } },
      { term: 'two\nlines', translations: { fr: 'deux "lignes"' } },
      { term: 'plain', translations: { de: 'einfach', fr: 'simple' } },
    ]);

    const exported = await call('GET', `/${id}?format=csv`);
    expect(exported.status).toBe(200);
    expect(exported.headers.get('content-type')).toBe('text/csv; charset=utf-8');
    expect(exported.text).toBe('term,de,fr\r\n"sign in, now",jetzt anmelden,connexion\r\n"two\nlines",,"deux ""lignes"""\r\nplain,einfach,simple\r\n');

    // The export is a valid upload: a copy made from it holds the same entries.
    const copy = await call('POST', '?name=Copy&source=en', csv(exported.text));
    expect(copy.status).toBe(201);
    expect((await call('GET', `/${copy.body.glossary.id}`)).body.glossary.entries).toEqual((await call('GET', `/${id}`)).body.glossary.entries);
  });

  it('exports formula-like cells behind an apostrophe and reads the export back unchanged', async () => {
    const { call } = await account();
    const entries = [
      { term: '=HYPERLINK("http://x.test","sofa")', translations: { de: '+Sofa' } },
      { term: "'=quoted", translations: { de: '@Sofa' } },
      { term: '-ing', translations: { de: "'-ung" } },
    ];
    const created = await call('POST', '', { json: { name: 'Formulas', source: 'en', entries } });
    expect(created.status).toBe(201);
    const exported = await call('GET', `/${created.body.glossary.id}?format=csv`);
    expect(exported.text).toBe(`term,de\r\n"'=HYPERLINK(""http://x.test"",""sofa"")",'+Sofa\r\n''=quoted,'@Sofa\r\n'-ing,''-ung\r\n`);
    const copy = await call('POST', '?name=Copy&source=en', csv(exported.text));
    expect((await call('GET', `/${copy.body.glossary.id}`)).body.glossary.entries).toEqual((await call('GET', `/${created.body.glossary.id}`)).body.glossary.entries);
  });

  it.each([
    ['an unterminated quoted field', 'term,de\ncloud,Wolke\nrain,Regen\n"snow,Schnee\nsun,Sonne\n', 'line 4: unterminated quoted field'],
    ['a stray quote', 'term,de\ncloud,"Wol"ke\n', 'line 2: unexpected "k" after a closing quote'],
    ['a row of the wrong width', 'term,de,fr\ncloud,Wolke\n', 'line 2: 2 fields where the header row has 3'],
    ['an unknown language column', 'term,de,xx\ncloud,Wolke,nuage\n', 'line 1: column 3: language "xx" is not one of the 24 official EU languages'],
    ['the source as a column', 'term,en\ncloud,cloud\n', 'line 1: column 2: "en" is the source language of the glossary, not a target'],
    ['an empty term', 'term,de\ncloud,Wolke\n,Regen\n', 'line 3: the term is empty'],
    ['a repeated term', 'term,de\nCloud,Wolke\nrain,Regen\nCLOUD,Wolken\n', 'line 4: the term "CLOUD" repeats line 2 (terms are compared case-insensitively)'],
    ['a term without translation', 'term,de,fr\ncloud,,\n', 'line 2: the term "cloud" has no translation'],
    ['a NUL in a term', 'term,de\nclo\u0000ud,Wolke\n', 'line 2 contains a NUL character'],
  ])('refuses CSV with %s with 422 naming the line', async (_, upload, message) => {
    const { call } = await account();
    const res = await call('POST', '?name=bad&source=en', csv(upload));
    expect(res.status).toBe(422);
    expect(res.body).toEqual({ error: 'unsupported_language', message: expect.stringContaining(message) });
    expect((await call('GET')).body.glossaries).toEqual([]);
  });

  it('refuses CSV that is not UTF-8, lacks its name or source, or goes to a route without CSV', async () => {
    const { call, plainKey } = await account();
    const latin1 = await call('POST', '?name=g&source=de', csv(Buffer.from('term,en\nGrüße,greetings\n', 'latin1')));
    expect(latin1.status).toBe(422);
    expect(latin1.body.message).toBe('The CSV is not valid UTF-8 text; save it as "CSV UTF-8"');

    const declared = await call('POST', '?name=g&source=de', csv('term,en\n', 'text/csv; charset=windows-1252'));
    expect(declared.status).toBe(415);
    expect(declared.body).toEqual({ error: 'unsupported_media_type', message: 'CSV must be encoded as UTF-8, not windows-1252' });

    const unnamed = await call('POST', '?source=en', csv('term,de\ncloud,Wolke\n'));
    expect(unnamed.status).toBe(422);
    expect(unnamed.body.message).toBe('A CSV upload names the glossary in the query: ?name=<name>&source=<language code>');

    const elsewhere = await http(url, 'POST', '/api/v1/keys', { token: plainKey, ...csv('a,b\n') });
    expect(elsewhere.status).toBe(415);
    expect(elsewhere.body).toEqual({ error: 'unsupported_media_type', message: 'This endpoint does not accept text/csv' });

    const oversized = await call('POST', '?name=g&source=en', csv(`term,de\n${'cloud,Wolke\n'.repeat(800_000)}`));
    expect(oversized.status).toBe(413);
    expect(oversized.body).toEqual({ error: 'payload_too_large', message: 'The request body exceeds the size limit' });
  });

  it.each([
    ['a body that is not an object', [], 'The request body must be an object'],
    ['an unknown field', { ...terms, owner: 'me' }, 'The request body has an unknown field "owner"'],
    ['a source outside the EU languages', { ...terms, source: 'ru' }, 'source "ru" is not one of the 24 official EU languages'],
    ['a translation that is not text', { ...terms, entries: [{ term: 'a', translations: { de: 1 } }] }, 'entries[0].translations.de must be a string'],
    ['a target equal to the source', { ...terms, entries: [{ term: 'a', translations: { en: 'a' } }] }, 'entries[0]: "en" is the source language'],
    ['a repeated term', { ...terms, entries: [{ term: 'Cloud', translations: { de: 'a' } }, { term: 'cloud', translations: { de: 'b' } }] }, 'entries[1]: the term "cloud" repeats entries[0]'],
    ['no entries', { ...terms, entries: [] }, 'A glossary needs at least one entry'],
    ['a NUL in its name', { ...terms, name: 'Brand\u0000terms' }, 'name contains a NUL character'],
    ['a NUL in a translation', { ...terms, entries: [{ term: 'a', translations: { de: 'b\u0000' } }] }, 'entries[0] contains a NUL character'],
  ])('refuses JSON with %s with 422', async (_, json, message) => {
    const { call } = await account();
    const res = await call('POST', '', { json });
    expect(res.status).toBe(422);
    expect(res.body).toEqual({ error: 'unsupported_language', message: expect.stringContaining(message) });
  });

  it('refuses JSON with name or source in the query', async () => {
    const { call } = await account();
    const res = await call('POST', '?name=x', { json: terms });
    expect(res.status).toBe(422);
    expect(res.body.message).toBe('With a JSON body, name and source belong in the body; the query parameters are for CSV uploads');
  });

  it('holds at most 20 glossaries per account: the 21st is 422 until one is deleted', async () => {
    const { call } = await account();
    const ids: string[] = [];
    for (let i = 0; i < 20; i++) {
      const res = await call('POST', '', { json: { ...terms, name: `g${i}` } });
      expect(res.status).toBe(201);
      ids.push(res.body.glossary.id);
    }
    const over = await call('POST', '', { json: { ...terms, name: 'g20' } });
    expect(over.status).toBe(422);
    expect(over.body).toEqual({ error: 'unsupported_language', message: 'An account holds at most 20 sandbox glossaries; delete one before creating another' });

    expect((await call('DELETE', `/${ids[0]}`)).status).toBe(200);
    expect((await call('POST', '', { json: { ...terms, name: 'g20' } })).status).toBe(201);
    expect((await call('GET')).body.glossaries).toHaveLength(20);
  });

  it('holds at most 5,000 entries: 5,001 are 413 as JSON and as CSV, 5,000 are fine', async () => {
    const { call } = await account();
    const entries = Array.from({ length: 5001 }, (_, i) => ({ term: `term ${i}`, translations: { de: `Begriff ${i}` } }));
    const json = await call('POST', '', { json: { ...terms, entries } });
    expect(json.status).toBe(413);
    expect(json.body).toEqual({ error: 'payload_too_large', message: 'The glossary has 5001 entries; a glossary holds at most 5000' });

    const rows = entries.map((e) => `${e.term},${e.translations.de}\n`).join('');
    const asCsv = await call('POST', '?name=big&source=en', csv(`term,de\n${rows}`));
    expect(asCsv.status).toBe(413);
    expect(asCsv.body.error).toBe('payload_too_large');

    const full = await call('POST', '', { json: { ...terms, entries: entries.slice(0, 5000) } });
    expect(full.status).toBe(201);
    expect(full.body.glossary.entry_count).toBe(5000);
  });

  it("answers 404 for another account's glossary and for ids that do not exist", async () => {
    const owner = await account();
    const stranger = await account();
    const { id } = (await owner.call('POST', '', { json: terms })).body.glossary;

    for (const path of [`/${id}`, `/${randomUUID()}`, '/not-a-uuid']) {
      for (const [method, options] of [['GET', {}], ['PUT', { json: terms }], ['DELETE', {}]] as const) {
        const res = await stranger.call(method, path, options);
        expect(res.status, `${method} ${path}`).toBe(404);
        expect(res.body).toEqual({ error: 'not_found', message: `Glossary ${path.slice(1)} not found` });
      }
    }
    expect((await stranger.call('GET')).body.glossaries).toEqual([]);
    expect((await owner.call('GET', `/${id}`)).body.glossary.entries).toEqual(terms.entries);
  });

  it('replaces a glossary whole, as JSON or CSV, keeping its id and creation time', async () => {
    const { call } = await account();
    const created = (await call('POST', '', { json: terms })).body.glossary;

    const replacement = { name: 'Renamed', source: 'de', entries: [{ term: 'Wolke', translations: { en: 'cloud' } }] };
    const replaced = await call('PUT', `/${created.id}`, { json: replacement });
    expect(replaced.status).toBe(200);
    expect(replaced.body.glossary).toMatchObject({ id: created.id, name: 'Renamed', source: 'de', targets: ['en'], entry_count: 1, created_at: created.created_at });
    expect(Date.parse(replaced.body.glossary.updated_at)).toBeGreaterThan(Date.parse(created.updated_at));
    expect((await call('GET', `/${created.id}`)).body.glossary.entries).toEqual(replacement.entries);

    const fromCsv = await call('PUT', `/${created.id}?name=From%20CSV&source=en`, csv('term,sv\ncloud,moln\n'));
    expect(fromCsv.status).toBe(200);
    expect(fromCsv.body.glossary).toMatchObject({ id: created.id, name: 'From CSV', source: 'en', targets: ['sv'] });
    expect((await call('GET', `/${created.id}?format=csv`)).text).toBe('term,sv\r\ncloud,moln\r\n');

    const invalid = await call('PUT', `/${created.id}`, { json: { ...replacement, source: 'xx' } });
    expect(invalid.status).toBe(422);
    expect((await call('GET', `/${created.id}`)).body.glossary.name).toBe('From CSV');
  });

  it('deletes a glossary', async () => {
    const { call } = await account();
    const { id } = (await call('POST', '', { json: terms })).body.glossary;
    const deleted = await call('DELETE', `/${id}`);
    expect(deleted.status).toBe(200);
    expect(deleted.body).toEqual({ ok: true });
    expect((await call('GET', `/${id}`)).status).toBe(404);
    expect((await call('GET')).body.glossaries).toEqual([]);
    expect((await call('DELETE', `/${id}`)).status).toBe(404);
  });

  it('refuses an unknown format and requests without a key', async () => {
    const { call } = await account();
    const { id } = (await call('POST', '', { json: terms })).body.glossary;
    const res = await call('GET', `/${id}?format=xml`);
    expect(res.status).toBe(422);
    expect(res.body.message).toContain('format must be one of the following values: json, csv');
    expect((await http(url, 'GET', '/api/v1/glossaries')).status).toBe(401);
  });

  it('is described in the OpenAPI document with JSON and CSV bodies', async () => {
    const { body } = await http(url, 'GET', '/openapi.json');
    const create = body.paths['/api/v1/glossaries'].post;
    expect(Object.keys(create.requestBody.content)).toEqual(['application/json', 'text/csv']);
    expect(create.requestBody.content['application/json'].schema.$ref).toBe('#/components/schemas/GlossaryInputDto');
    expect(create.parameters.map((p: { name: string }) => p.name)).toEqual(expect.arrayContaining(['Idempotency-Key', 'name', 'source']));
    expect(Object.keys(create.responses)).toEqual(expect.arrayContaining(['201', '401', '409', '413', '415', '422', '429', '503']));
    const get = body.paths['/api/v1/glossaries/{id}'].get;
    expect(Object.keys(get.responses['200'].content)).toEqual(['application/json', 'text/csv']);
    expect(Object.keys(body.paths['/api/v1/glossaries/{id}'])).toEqual(expect.arrayContaining(['get', 'put', 'delete']));
  });
});
