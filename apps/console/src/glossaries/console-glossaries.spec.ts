import type { NestFastifyApplication } from '@nestjs/platform-fastify';
import { randomUUID } from 'node:crypto';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { accountWithOwner, Browser, startConsole, type TestAccount } from '../console-browser.testing';

const CSV = 'term,de,fr\r\ncloud,Wolke,nuage\r\nserver,Server,serveur\r\n"sign in, now",jetzt anmelden,\r\n';

describe('console glossaries over HTTP', () => {
  let app: NestFastifyApplication;
  let url: string;
  let account: TestAccount;

  beforeAll(async () => {
    ({ app, url } = await startConsole());
    account = await accountWithOwner(app, url);
  });
  afterAll(() => app?.close());

  const upload = (browser: Browser, body: Record<string, unknown>, mode = 'sandbox') => browser.call('POST', `/glossaries?mode=${mode}`, body);

  it('uploads a CSV file, lists it in its mode only, and pages and searches its entries', async () => {
    const created = await upload(account.owner, { name: 'Product terms', source: 'en', csv: `\uFEFF${CSV}` });
    expect(created.status).toBe(201);
    expect(created.body.glossary).toMatchObject({ name: 'Product terms', source: 'en', targets: ['de', 'fr'], entry_count: 3 });
    const { id } = created.body.glossary;

    const listed = await account.owner.call('GET', '/glossaries?mode=sandbox&limit=1');
    expect(listed.body).toEqual({ ok: true, glossaries: [created.body.glossary], total: 1 });
    expect((await account.owner.call('GET', '/glossaries?mode=live')).body).toEqual({ ok: true, glossaries: [], total: 0 });
    expect((await account.owner.call('GET', `/glossaries/${id}?mode=live`)).status).toBe(404);

    const page = await account.owner.call('GET', `/glossaries/${id}?mode=sandbox&offset=1&limit=1`);
    expect(page.body).toEqual({ ok: true, glossary: created.body.glossary, entries: [{ index: 1, term: 'server', translations: { de: 'Server', fr: 'serveur' } }], total: 3 });
    const found = await account.owner.call('GET', `/glossaries/${id}?mode=sandbox&q=${encodeURIComponent('ANMELDEN')}`);
    expect(found.body.entries).toEqual([{ index: 2, term: 'sign in, now', translations: { de: 'jetzt anmelden' } }]);
    expect(found.body.total).toBe(1);
  });

  it.each([
    ['an unterminated quoted field', 'term,de\ncloud,Wolke\n"rain,Regen\n', 'line 3: unterminated quoted field'],
    ['a row of the wrong width', 'term,de,fr\ncloud,Wolke,nuage\nrain,Regen\n', 'line 3: 2 fields where the header row has 3'],
    ['a repeated term', 'term,de\ncloud,Wolke\nCloud,Wolken\n', 'line 3: the term "Cloud" repeats line 2 (terms are compared case-insensitively)'],
    ['an unknown language', 'term,xx\ncloud,Wolke\n', 'line 1: column 2: language "xx" is not one of the 24 official EU languages'],
  ])('refuses a CSV with %s as the public API does, naming the line', async (_, csv, message) => {
    const fresh = await accountWithOwner(app, url);
    const res = await upload(fresh.owner, { name: 'bad', source: 'en', csv });
    expect(res.status).toBe(422);
    expect(res.body).toEqual({ error: 'invalid_request', message: expect.stringContaining(message) });
    expect((await fresh.owner.call('GET', '/glossaries?mode=sandbox')).body.total).toBe(0);
  });

  it('refuses uploads without a name, source or file, and with a source outside the EU languages', async () => {
    for (const [body, message] of [
      [{ source: 'en', csv: CSV }, /name must be a string/],
      [{ name: 'x', source: 'en' }, /csv must be a string/],
      [{ name: 'x', source: 'ru', csv: CSV }, /source "ru" is not one of the 24 official EU languages/],
      [{ name: ' ', source: 'en', csv: CSV }, /name must be 1 to 100 characters/],
      [{ name: 'x', source: 'en', csv: CSV, owner: 'me' }, /property owner should not exist/],
    ] as const) {
      const res = await upload(account.owner, body);
      expect(res.status, JSON.stringify(body)).toBe(422);
      expect(res.body).toEqual({ error: 'invalid_request', message: expect.stringMatching(message) });
    }
  });

  it('takes a file larger than the rest of the console allows', async () => {
    const rows = Array.from({ length: 3000 }, (_, i) => `term number ${i},Begriff Nummer ${i},terme numéro ${i}\r\n`).join('');
    const fresh = await accountWithOwner(app, url);
    const res = await upload(fresh.owner, { name: 'big', source: 'en', csv: `term,de,fr\r\n${rows}` });
    expect(res.status).toBe(201);
    expect(res.body.glossary.entry_count).toBe(3000);
    const tooLarge = await fresh.owner.call('PUT', `/glossaries/${res.body.glossary.id}/entries/0?mode=sandbox`, { term: 'x'.repeat(70_000), translations: { de: 'y' } });
    expect(tooLarge.status).toBe(413);
  });

  it('edits one entry under the rules of a whole upload', async () => {
    const { id } = (await upload(account.owner, { name: 'Editable', source: 'en', csv: CSV })).body.glossary;
    const edited = await account.owner.call('PUT', `/glossaries/${id}/entries/1?mode=sandbox`, { term: 'server', translations: { de: 'Rechner', sv: 'server' } });
    expect(edited.status).toBe(200);
    expect(edited.body.entry).toEqual({ index: 1, term: 'server', translations: { de: 'Rechner', sv: 'server' } });
    expect(edited.body.glossary).toMatchObject({ targets: ['de', 'fr', 'sv'], entry_count: 3 });
    expect((await account.owner.call('GET', `/glossaries/${id}?mode=sandbox&q=rechner`)).body.entries).toHaveLength(1);

    for (const [body, message] of [
      [{ term: 'Cloud', translations: { de: 'x' } }, 'entries[1]: the term "Cloud" repeats entries[0] (terms are compared case-insensitively)'],
      [{ term: 'server', translations: { en: 'server' } }, 'entries[1]: "en" is the source language of the glossary, not a target'],
      [{ term: 'server', translations: { de: 5 } }, 'entries[1].translations.de must be a string'],
      [{ term: 'server', translations: {} }, 'entries[1]: the term "server" has no translation'],
    ] as const) {
      const res = await account.owner.call('PUT', `/glossaries/${id}/entries/1?mode=sandbox`, body);
      expect(res.status, JSON.stringify(body)).toBe(422);
      expect(res.body).toEqual({ error: 'invalid_request', message });
    }
    for (const index of ['3', '-1', 'x']) {
      const res = await account.owner.call('PUT', `/glossaries/${id}/entries/${index}?mode=sandbox`, { term: 'a', translations: { de: 'b' } });
      expect(res.status, index).toBe(404);
      expect(res.body).toEqual({ error: 'not_found', message: `Glossary ${id} has no entry ${index}` });
    }
  });

  it('downloads the CSV as a file in the upload layout', async () => {
    const { id } = (await upload(account.owner, { name: 'Grüße', source: 'en', csv: 'term,de\n=SUM(A1),Summe\n' })).body.glossary;
    const res = await account.owner.call('GET', `/glossaries/${id}/csv?mode=sandbox`);
    expect(res.status).toBe(200);
    expect(res.headers.get('content-type')).toBe('text/csv; charset=utf-8');
    expect(res.headers.get('content-disposition')).toBe(`attachment; filename="Gr__e.csv"; filename*=UTF-8''Gr%C3%BC%C3%9Fe.csv`);
    expect(res.text).toBe("term,de\r\n'=SUM(A1),Summe\r\n");
  });

  it('deletes a glossary', async () => {
    const { id } = (await upload(account.owner, { name: 'Doomed', source: 'en', csv: CSV })).body.glossary;
    const deleted = await account.owner.call('DELETE', `/glossaries/${id}?mode=sandbox`);
    expect(deleted.body).toEqual({ ok: true });
    expect((await account.owner.call('GET', `/glossaries/${id}?mode=sandbox`)).status).toBe(404);
    expect((await account.owner.call('DELETE', `/glossaries/${id}?mode=sandbox`)).status).toBe(404);
  });

  it("answers 404 for another account's glossary on every route", async () => {
    const { id } = (await upload(account.owner, { name: 'Mine', source: 'en', csv: CSV })).body.glossary;
    const other = await accountWithOwner(app, url);
    for (const [method, path, body] of [
      ['GET', `/glossaries/${id}?mode=sandbox`],
      ['GET', `/glossaries/${id}/csv?mode=sandbox`],
      ['PUT', `/glossaries/${id}/entries/0?mode=sandbox`, { term: 'cloud', translations: { de: 'x' } }],
      ['DELETE', `/glossaries/${id}?mode=sandbox`],
      ['GET', `/glossaries/${randomUUID()}?mode=sandbox`],
    ] as const) {
      const res = await other.owner.call(method, path, body);
      expect(res.status, `${method} ${path}`).toBe(404);
      expect(res.body.error).toBe('not_found');
    }
    expect((await account.owner.call('GET', `/glossaries/${id}?mode=sandbox`)).body.entries).toHaveLength(3);
  });

  it('lets members in, refuses reviewers, the signed-out and calls without the CSRF token', async () => {
    const { browser: member } = await account.join('member');
    expect((await upload(member, { name: 'By a member', source: 'en', csv: CSV })).status).toBe(201);
    const { browser: reviewer } = await account.join('reviewer');
    for (const [method, path] of [['GET', '/glossaries?mode=sandbox'], ['POST', '/glossaries?mode=sandbox']] as const) {
      const res = await reviewer.call(method, path, method === 'POST' ? { name: 'x', source: 'en', csv: CSV } : undefined);
      expect(res.status, `${method} ${path}`).toBe(403);
      expect(res.body.error).toBe('forbidden');
    }
    expect((await new Browser(url).call('GET', '/glossaries?mode=sandbox')).status).toBe(401);
    const noCsrf = await account.owner.call('POST', '/glossaries?mode=sandbox', { name: 'x', source: 'en', csv: CSV }, { csrf: false });
    expect(noCsrf.status).toBe(403);
    expect(noCsrf.body.error).toBe('csrf_token_invalid');
  });
});
