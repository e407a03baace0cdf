import type { NestFastifyApplication } from '@nestjs/platform-fastify';
import { randomUUID } from 'node:crypto';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { accountWithOwner, Browser, startConsole, type TestAccount } from '../console-browser.testing';

const TMX_TYPE = { 'content-type': 'application/x-tmx+xml' };

/** A TMX file as a CAT tool writes one: English sources, German and Japanese variants, one unit without a translation. */
const tmx = (units: [string, string][]) =>
  `<?xml version="1.0" encoding="UTF-8"?>\n<tmx version="1.4">\n<header srclang="en" creationtool="Test tool" creationtoolversion="1" segtype="sentence" o-tmf="t" adminlang="en" datatype="plaintext"/>\n<body>\n` +
  units.map(([from, to]) => `<tu><tuv xml:lang="en"><seg>${from}</seg></tuv><tuv xml:lang="de"><seg>${to}</seg></tuv><tuv xml:lang="ja"><seg>日本語</seg></tuv></tu>\n`).join('') +
  '<tu><tuv xml:lang="en"><seg>Untranslated</seg></tuv><tuv xml:lang="de"><seg></seg></tuv></tu>\n</body>\n</tmx>\n';

const UNITS: [string, string][] = [
  ['Save the file', 'Datei speichern'],
  ['Open the file', 'Datei öffnen'],
  ['Click <bpt i="1">&lt;b&gt;</bpt>Cancel<ept i="1">&lt;/b&gt;</ept> to stop', 'Klicken Sie auf <bpt i="1">&lt;b&gt;</bpt>Abbrechen<ept i="1">&lt;/b&gt;</ept>, um aufzuhören'],
];

describe('console translation memories over HTTP', () => {
  let app: NestFastifyApplication;
  let url: string;
  let account: TestAccount;

  beforeAll(async () => {
    ({ app, url } = await startConsole());
    account = await accountWithOwner(app, url);
  });
  afterAll(() => app?.close());

  const create = async (browser: Browser, name: string, mode = 'sandbox') => {
    const res = await browser.call('POST', `/memories?mode=${mode}`, { name, source: 'en' });
    expect(res.status, res.text).toBe(201);
    return res.body.memory as { id: string; name: string };
  };
  const importFile = (browser: Browser, id: string, file: string | Uint8Array, headers: Record<string, string> = TMX_TYPE, query = 'mode=sandbox') =>
    browser.call('POST', `/memories/${id}/import?${query}`, undefined, { body: file, headers });

  it('lists the default memory and the limits, creates one in its mode only, and refuses bad names', async () => {
    const fresh = await accountWithOwner(app, url);
    const empty = await fresh.owner.call('GET', '/memories?mode=sandbox');
    expect(empty.status).toBe(200);
    expect(empty.body).toEqual({
      ok: true,
      memories: [expect.objectContaining({ name: 'default', default: true, entry_count: 0 })],
      limits: { memories_per_mode: 20, entries_per_memory: 100_000, import_bytes: 20 * 1024 * 1024, segment_length: 5000 },
    });
    const created = await create(fresh.owner, ' Product UI ');
    expect(created).toMatchObject({ name: 'Product UI', source: 'en', default: false, entry_count: 0 });
    expect((await fresh.owner.call('GET', '/memories?mode=sandbox')).body.memories.map((memory: { name: string }) => memory.name)).toEqual(['default', 'Product UI']);
    expect((await fresh.owner.call('GET', '/memories?mode=live')).body.memories.map((memory: { name: string }) => memory.name)).toEqual(['default']);

    for (const [body, message] of [
      [{ name: '' }, 'name must not be empty'],
      [{ name: 'default' }, `The name "default" belongs to the memory reviewers' verdicts go to; choose another`],
      [{ name: 'x'.repeat(101) }, 'name must be shorter than or equal to 100 characters'],
      [{ name: 'UI', source: 'ru' }, 'source must be one of the 24 official EU languages'],
      [{ name: 'UI\u0000' }, 'The name holds a control character or a broken surrogate pair'],
      [{ name: 7 }, 'name must be a string'],
      [{ name: 'UI', owner: 'me' }, 'property owner should not exist'],
    ] as const) {
      const res = await fresh.owner.call('POST', '/memories?mode=sandbox', body);
      expect(res.status, JSON.stringify(body)).toBe(422);
      expect(res.body).toEqual({ error: 'invalid_request', message: expect.stringContaining(message) });
    }
    expect((await fresh.owner.call('POST', '/memories?mode=staging', { name: 'UI' })).body.message).toBe('mode must be one of: sandbox, live');
  });

  it('imports a TMX file with a summary, searches, edits and deletes entries, and exports TMX that holds them', async () => {
    const { id } = await create(account.owner, 'Imported');
    const imported = await importFile(account.owner, id, tmx(UNITS));
    expect(imported.status, imported.text).toBe(200);
    expect(imported.body).toEqual({ ok: true, memory: expect.objectContaining({ id, entry_count: 3 }), added: 3, replaced: 0, skipped: { language: 3, untranslated: 1 } });
    const again = await importFile(account.owner, id, tmx([['Save the file', 'Die Datei speichern']]));
    expect(again.body).toMatchObject({ added: 0, replaced: 1, memory: { entry_count: 3 } });

    const page = await account.owner.call('GET', `/memories/${id}?mode=sandbox&limit=2`);
    expect(page.body.entries.map((entry: { source: string }) => entry.source)).toEqual(['Save the file', 'Open the file']);
    expect(page.body.entries[0]).toMatchObject({ target: 'Die Datei speichern', origin: 'import', provenance: { format: 'tmx', tool: 'Test tool' } });
    expect(page.body.next_cursor).toBe(page.body.entries[1].id);
    expect(page.body.limits.entries_per_memory).toBe(100_000);
    const next = await account.owner.call('GET', `/memories/${id}?mode=sandbox&limit=2&cursor=${page.body.next_cursor}`);
    expect(next.body).toMatchObject({ entries: [{ source: 'Click <b>Cancel</b> to stop', source_masked: 'Click <g id="1">Cancel</g> to stop' }], next_cursor: null });

    const found = await account.owner.call('GET', `/memories/${id}?mode=sandbox&q=${encodeURIComponent('ÖFFNEN')}`);
    expect(found.body.entries.map((entry: { source: string }) => entry.source)).toEqual(['Open the file']);
    const entryId = found.body.entries[0].id;

    const edited = await account.owner.call('PATCH', `/memories/${id}/entries/${entryId}?mode=sandbox`, { target: 'Öffnen Sie die Datei' });
    expect(edited.status).toBe(200);
    expect(edited.body.entry).toMatchObject({ id: entryId, source: 'Open the file', target: 'Öffnen Sie die Datei', origin: 'api', provenance: { user: expect.any(String) } });
    for (const [body, message] of [
      [{}, 'Give the entry a new source, a new target or both'],
      [{ target: '   ' }, ''],
      [{ target: 5 }, 'target must be a string'],
      [{ target: 'x'.repeat(5001) }, ''],
    ] as const) {
      const res = await account.owner.call('PATCH', `/memories/${id}/entries/${entryId}?mode=sandbox`, body);
      expect(res.status, JSON.stringify(body)).toBe(422);
      expect(res.body).toEqual({ error: 'invalid_request', message: expect.stringContaining(message) });
    }
    expect((await account.owner.call('PATCH', `/memories/${id}/entries/${entryId}?mode=sandbox`, { target: 'x'.repeat(70_000) })).status).toBe(413);

    expect((await account.owner.call('DELETE', `/memories/${id}/entries/${entryId}?mode=sandbox`)).body).toEqual({ ok: true });
    expect((await account.owner.call('DELETE', `/memories/${id}/entries/${entryId}?mode=sandbox`)).status).toBe(404);
    expect((await account.owner.call('GET', `/memories/${id}?mode=sandbox`)).body.memory.entry_count).toBe(2);

    const exported = await account.owner.call('GET', `/memories/${id}/export?mode=sandbox`);
    expect(exported.status).toBe(200);
    expect(exported.headers.get('content-type')).toBe('application/x-tmx+xml; charset=utf-8');
    expect(exported.headers.get('content-disposition')).toBe(`attachment; filename="Imported.tmx"; filename*=UTF-8''Imported.tmx`);
    expect(exported.text).toContain('<seg>Die Datei speichern</seg>');
    expect(exported.text).not.toContain('Datei öffnen');
    const copy = await create(account.owner, 'Copy');
    expect((await importFile(account.owner, copy.id, exported.text)).body).toMatchObject({ added: 2, replaced: 0 });
  });

  it('refuses a bad file with a 4xx that says what is wrong, and writes nothing', async () => {
    const { id } = await create(account.owner, 'Guarded');
    const refusals: [string | Uint8Array, Record<string, string>, string, number, RegExp][] = [
      ['<tmx version="1.4"><header srclang="en"/><body><tu><tuv xml:lang="en"><seg>Open</seg></tuv>', TMX_TYPE, 'mode=sandbox', 422, /line \d+/],
      ['not a memory at all', TMX_TYPE, 'mode=sandbox', 422, /./],
      ['', TMX_TYPE, 'mode=sandbox', 422, /./],
      [new Uint8Array([0xff, 0xfe, 0x00, 0x00, 0x3c]), TMX_TYPE, 'mode=sandbox', 422, /./],
      [tmx(UNITS), { 'content-type': 'application/octet-stream' }, 'mode=sandbox', 422, /Say which format the file has/],
      [tmx(UNITS), { 'content-type': 'application/xml' }, 'mode=sandbox&format=docx', 422, /format must be one of the following values: tmx, xliff, po/],
      ['msgid "Open"\nmsgstr "Öffnen"\n', { 'content-type': 'text/x-gettext-translation' }, 'mode=sandbox', 422, /./],
      ['{"entries":[]}', { 'content-type': 'application/json' }, 'mode=sandbox', 415, /Send the file as the body with its media type/],
      ['a,b\n', { 'content-type': 'text/csv' }, 'mode=sandbox', 415, /Content-Type/],
    ];
    for (const [file, headers, query, status, message] of refusals) {
      const res = await importFile(account.owner, id, file, headers, query);
      expect(res.status, `${headers['content-type']} ${query} ${String(file).slice(0, 40)}`).toBe(status);
      expect(res.body.message).toMatch(message);
    }
    const tooLarge = await importFile(account.owner, id, new Uint8Array(20 * 1024 * 1024 + 1));
    expect(tooLarge.status).toBe(413);
    expect((await account.owner.call('GET', `/memories/${id}?mode=sandbox`)).body.memory.entry_count).toBe(0);
  });

  it('reads a PO file with the target it is asked for, and a source that does not fit the memory is refused', async () => {
    const { id } = await create(account.owner, 'From PO');
    const po = 'msgid ""\nmsgstr "Content-Type: text/plain; charset=UTF-8\\n"\n\nmsgid "Open"\nmsgstr "Öffnen"\n\n#, fuzzy\nmsgid "Close"\nmsgstr "Zu"\n';
    const res = await importFile(account.owner, id, po, { 'content-type': 'text/x-gettext-translation' }, 'mode=sandbox&target=de');
    expect(res.body).toMatchObject({ added: 1, skipped: { fuzzy: 1 } });
    const misfit = await importFile(account.owner, id, po, { 'content-type': 'text/x-gettext-translation' }, 'mode=sandbox&target=de&source=fr');
    expect(misfit).toMatchObject({ status: 422, body: { error: 'invalid_request', message: 'This memory holds sources in "en"; source "fr" does not fit it' } });
  });

  it("answers 404 for another account's memory and entries, and for the other mode's, on every route", async () => {
    const { id } = await create(account.owner, 'Private');
    await importFile(account.owner, id, tmx(UNITS));
    const entryId = (await account.owner.call('GET', `/memories/${id}?mode=sandbox`)).body.entries[0].id;
    const other = await accountWithOwner(app, url);
    const routes = (mode: string, memory = id) =>
      [
        ['GET', `/memories/${memory}?mode=${mode}`],
        ['GET', `/memories/${memory}/export?mode=${mode}`],
        ['PATCH', `/memories/${memory}/entries/${entryId}?mode=${mode}`, { target: 'Gestohlen' }],
        ['DELETE', `/memories/${memory}/entries/${entryId}?mode=${mode}`],
        ['POST', `/memories/${memory}/import?mode=${mode}`, tmx([['Stolen', 'Gestohlen']])],
        ['DELETE', `/memories/${memory}?mode=${mode}`],
      ] as const;
    const call = (browser: Browser, [method, path, body]: readonly [string, string, unknown?]) =>
      typeof body === 'string' ? browser.call(method, path, undefined, { body, headers: TMX_TYPE }) : browser.call(method, path, body);

    for (const route of routes('sandbox')) {
      const res = await call(other.owner, route);
      expect(res.status, `${route[0]} ${route[1]}`).toBe(404);
      expect(res.body.error).toBe('not_found');
    }
    for (const route of [...routes('live'), ...routes('sandbox', randomUUID()), ...routes('sandbox', 'not-a-uuid')]) {
      expect((await call(account.owner, route)).status, `${route[0]} ${route[1]}`).toBe(404);
    }
    // Its own memory with another memory's entry id.
    const own = await create(other.owner, 'Own');
    expect((await other.owner.call('PATCH', `/memories/${own.id}/entries/${entryId}?mode=sandbox`, { target: 'x' })).status).toBe(404);
    expect((await other.owner.call('GET', '/memories?mode=sandbox')).body.memories.map((memory: { id: string }) => memory.id)).not.toContain(id);

    const kept = await account.owner.call('GET', `/memories/${id}?mode=sandbox`);
    expect(kept.body.memory.entry_count).toBe(3);
    expect(kept.body.entries.map((entry: { target: string }) => entry.target)).not.toContain('Gestohlen');
  });

  it('lets members in, and refuses reviewers, the signed-out and changes without the CSRF token', async () => {
    const { browser: member } = await account.join('member');
    const { id } = await create(member, 'By a member');
    const { browser: reviewer } = await account.join('reviewer');
    for (const [method, path] of [
      ['GET', '/memories?mode=sandbox'],
      ['POST', '/memories?mode=sandbox'],
      ['GET', `/memories/${id}?mode=sandbox`],
      ['GET', `/memories/${id}/export?mode=sandbox`],
    ] as const) {
      const res = await reviewer.call(method, path, method === 'POST' ? { name: 'x' } : undefined);
      expect(res.status, `${method} ${path}`).toBe(403);
      expect(res.body.error).toBe('forbidden');
    }
    expect((await new Browser(url).call('GET', '/memories?mode=sandbox')).status).toBe(401);
    const noCsrf = await member.call('POST', `/memories/${id}/import?mode=sandbox`, undefined, { body: tmx(UNITS), headers: TMX_TYPE, csrf: false });
    expect(noCsrf).toMatchObject({ status: 403, body: { error: 'csrf_token_invalid' } });
    expect((await member.call('DELETE', `/memories/${id}?mode=sandbox`, undefined, { csrf: false })).status).toBe(403);
  });
});
