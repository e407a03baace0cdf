import type { NestFastifyApplication } from '@nestjs/platform-fastify';
import { ReviewerService, ReviewTasks } from '@platform/review';
import { insertJobInReview } from '@platform/review/testing';
import { loadConfig } from '@platform/service-kit';
import { createTestKey, expectEventually, http, testAppEnv, type TestKey } from '@platform/testing';
import { randomUUID } from 'node:crypto';
import { DataSource } from 'typeorm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { TranslateApiConfig } from '../config/translate-api.config';
import { serveTranslateApi } from '../translate-api.app';

type Options = Parameters<typeof http>[3];

/** A TMX file as CAT tools export one: DOCTYPE, header srclang, regional tags, several variants, escaped markup in codes. */
const CAT_TOOL_TMX = `<?xml version="1.0" encoding="UTF-8"?>
<!DOCTYPE tmx SYSTEM "tmx14.dtd">
<tmx version="1.4">
  <header creationtool="OmegaT" creationtoolversion="6.0.0" o-tmf="OmegaT TMX" datatype="PlainText" segtype="sentence" adminlang="EN-US" srclang="EN-US">
  </header>
  <body>
    <tu tuid="1">
      <tuv xml:lang="EN-US"><seg>Click <bpt i="1">&lt;b&gt;</bpt>Save<ept i="1">&lt;/b&gt;</ept> to keep <ph x="2">{count}</ph> files.</seg></tuv>
      <tuv xml:lang="DE-DE"><seg>Klicken Sie auf <bpt i="1">&lt;b&gt;</bpt>Speichern<ept i="1">&lt;/b&gt;</ept>, um <ph x="2">{count}</ph> Dateien zu behalten.</seg></tuv>
      <tuv xml:lang="FR-FR"><seg>Cliquez sur <bpt i="1">&lt;b&gt;</bpt>Enregistrer<ept i="1">&lt;/b&gt;</ept> pour garder <ph x="2">{count}</ph> fichiers.</seg></tuv>
    </tu>
    <tu tuid="2">
      <tuv xml:lang="EN-US"><seg>Line<ph>&lt;br/&gt;</ph>break &amp; more</seg></tuv>
      <tuv xml:lang="DE-DE"><seg>Zeilen<ph>&lt;br/&gt;</ph>umbruch &amp; mehr</seg></tuv>
      <tuv xml:lang="JA-JP"><seg>改行</seg></tuv>
    </tu>
    <tu tuid="3">
      <tuv xml:lang="EN-US"><seg>Cancel</seg></tuv>
      <tuv xml:lang="DE-DE"><seg>Abbrechen</seg></tuv>
    </tu>
  </body>
</tmx>
`;

const tmx = (units: [string, string][], source = 'en') =>
  `<?xml version="1.0" encoding="UTF-8"?>\n<tmx version="1.4">\n<header srclang="${source}" creationtool="test" creationtoolversion="1" segtype="sentence" o-tmf="t" adminlang="en" datatype="plaintext"/>\n<body>\n` +
  units.map(([from, to]) => `<tu><tuv xml:lang="${source}"><seg>${from}</seg></tuv><tuv xml:lang="de"><seg>${to}</seg></tuv></tu>\n`).join('') +
  '</body>\n</tmx>\n';

describe('memories API', () => {
  let app: NestFastifyApplication;
  let url: string;

  beforeAll(async () => {
    app = await serveTranslateApi(loadConfig(TranslateApiConfig, testAppEnv()));
    url = await app.getUrl();
  });
  afterAll(() => app.close());

  /** A caller with a key of its own account (or of `key`'s account in the other mode), so listings and limits see only this test's memories. */
  async function account(options: { sandbox?: boolean; accountId?: string } = {}) {
    const key = await createTestKey({ rateLimitPerMinute: 10_000, ...options });
    const call = (method: string, path = '', opts: Options = {}) => http(url, method, `/api/v1/memories${path}`, { token: key.plainKey, ...opts });
    const create = async (json: object = { name: 'UI' }) => {
      const res = await call('POST', '', { json });
      expect(res.status).toBe(201);
      return res.body.memory as { id: string; name: string; entry_count: number };
    };
    const upload = (id: string, body: string | Uint8Array, contentType = 'application/x-tmx+xml', query = '') =>
      call('POST', `/${id}/import${query}`, { body, headers: { 'content-type': contentType } });
    const entries = async (id: string) => (await call('GET', `/${id}/entries?limit=100`)).body.entries as Record<string, unknown>[];
    return { key, call, create, upload, entries };
  }

  it('creates, lists, shows and deletes memories; the default one is always listed', async () => {
    const { call, create } = await account();
    const created = await call('POST', '', { json: { name: ' Product UI ', source: 'en' } });
    expect(created.status).toBe(201);
    expect(created.body).toEqual({
      ok: true,
      memory: { id: expect.any(String), name: 'Product UI', source: 'en', default: false, entry_count: 0, created_at: expect.any(String), updated_at: expect.any(String) },
    });
    const { id } = created.body.memory;
    expect((await call('GET', `/${id}`)).body).toEqual(created.body);

    const listed = (await call('GET')).body.memories;
    expect(listed.map((memory: { name: string; default: boolean }) => [memory.name, memory.default])).toEqual([
      ['default', true],
      ['Product UI', false],
    ]);

    const other = await create({ name: 'Help' });
    expect(await call('DELETE', `/${id}`)).toMatchObject({ status: 200, body: { ok: true } });
    expect((await call('GET', `/${id}`)).status).toBe(404);
    expect((await call('DELETE', `/${id}`)).status).toBe(404);
    expect((await call('GET')).body.memories.map((memory: { id: string }) => memory.id)).toContain(other.id);
  });

  it('refuses a bad name or source, and the name default', async () => {
    const { call } = await account();
    for (const [json, message] of [
      [{ name: '' }, 'name must not be empty'],
      [{ name: 'x'.repeat(101) }, 'name must be shorter than or equal to 100 characters'],
      [{ name: 'UI', source: 'ru' }, 'source must be one of the 24 official EU languages'],
      [{ name: 'UI', owner: 'me' }, 'property owner should not exist'],
      [{ name: 'default' }, 'The name "default" belongs to the memory reviewers\' verdicts go to; choose another'],
    ] as const) {
      const res = await call('POST', '', { json });
      expect(res.status, JSON.stringify(json)).toBe(422);
      expect(res.body).toEqual({ error: 'unsupported_language', message: expect.stringContaining(message) });
    }
  });

  it('holds at most 20 memories per account and mode, the default one included', async () => {
    const { call, create, key } = await account();
    for (let i = 0; i < 19; i++) await create({ name: `m${i}` });
    const over = await call('POST', '', { json: { name: 'm19' } });
    expect(over.status).toBe(422);
    expect(over.body).toEqual({ error: 'unsupported_language', message: 'An account holds at most 20 sandbox memories, the default one included; delete one before creating another' });
    expect((await call('GET')).body.memories).toHaveLength(20);
    // The live world of the account has room of its own.
    const live = await account({ sandbox: false, accountId: key.accountId });
    expect((await live.call('POST', '', { json: { name: 'live' } })).status).toBe(201);
  });

  it("answers 404 for another account's memory and the other mode's, on every route", async () => {
    const owner = await account({ sandbox: false });
    const memory = await owner.create();
    const entry = (await owner.call('POST', `/${memory.id}/entries`, { json: { source_lang: 'en', target_lang: 'de', source: 'Open', target: 'Öffnen' } })).body.entry;
    const stranger = await account({ sandbox: false });
    const sameAccountSandbox = await account({ sandbox: true, accountId: owner.key.accountId });

    for (const caller of [stranger, sameAccountSandbox]) {
      for (const [method, path, options] of [
        ['GET', `/${memory.id}`, {}],
        ['DELETE', `/${memory.id}`, {}],
        ['GET', `/${memory.id}/export`, {}],
        ['GET', `/${memory.id}/entries`, {}],
        ['POST', `/${memory.id}/entries`, { json: { source_lang: 'en', target_lang: 'de', source: 'a', target: 'b' } }],
        ['GET', `/${memory.id}/entries/${entry.id}`, {}],
        ['PATCH', `/${memory.id}/entries/${entry.id}`, { json: { target: 'x' } }],
        ['DELETE', `/${memory.id}/entries/${entry.id}`, {}],
        ['POST', `/${memory.id}/import`, { body: tmx([['a', 'b']]), headers: { 'content-type': 'application/x-tmx+xml' } }],
      ] as const) {
        const res = await caller.call(method, path, options);
        expect(res.status, `${method} ${path}`).toBe(404);
        expect(res.body).toEqual({ error: 'not_found', message: `Memory ${memory.id} not found` });
      }
      expect((await caller.call('GET')).body.memories.map((m: { id: string }) => m.id)).not.toContain(memory.id);
      expect((await caller.call('GET', '/suggestions?source=en&target=de&q=Open')).body.suggestions).toEqual([]);
    }
    for (const path of [`/${randomUUID()}`, '/not-a-uuid']) expect((await owner.call('GET', path)).status).toBe(404);
    expect((await owner.call('GET', `/${memory.id}/entries/999999999999`)).body).toEqual({ error: 'not_found', message: 'Memory entry 999999999999 not found' });
    expect((await owner.entries(memory.id)).map((e) => e.target)).toEqual(['Öffnen']);
    expect((await http(url, 'GET', '/api/v1/memories')).status).toBe(401);
  });

  it('imports a TMX exported by a CAT tool: codes become placeholders, other languages and empty variants are counted as skipped', async () => {
    const { create, upload, entries } = await account();
    const memory = await create();
    const res = await upload(memory.id, CAT_TOOL_TMX);
    expect(res.status).toBe(200);
    expect(res.body).toMatchObject({ ok: true, memory: { id: memory.id, entry_count: 4 }, added: 4, replaced: 0, skipped: { language: 1 } });
    expect((await entries(memory.id)).map(({ source_lang, target_lang, source, target, source_masked, target_masked, origin, provenance }) => ({ source_lang, target_lang, source, target, source_masked, target_masked, origin, provenance }))).toEqual([
      {
        source_lang: 'en',
        target_lang: 'de',
        source: 'Click <b>Save</b> to keep {count} files.',
        target: 'Klicken Sie auf <b>Speichern</b>, um {count} Dateien zu behalten.',
        source_masked: 'Click <g id="1">Save</g> to keep <x id="2"/> files.',
        target_masked: 'Klicken Sie auf <g id="1">Speichern</g>, um <x id="2"/> Dateien zu behalten.',
        origin: 'import',
        provenance: { format: 'tmx', tool: 'OmegaT' },
      },
      expect.objectContaining({ target_lang: 'fr', target_masked: 'Cliquez sur <g id="1">Enregistrer</g> pour garder <x id="2"/> fichiers.' }),
      expect.objectContaining({ source: 'Line<br/>break & more', source_masked: 'Line<x id="1"/>break &amp; more', target: 'Zeilen<br/>umbruch & mehr' }),
      expect.objectContaining({ source: 'Cancel', target: 'Abbrechen' }),
    ]);
    // Imported again, every entry replaces itself.
    expect((await upload(memory.id, CAT_TOOL_TMX)).body).toMatchObject({ memory: { entry_count: 4 }, added: 0, replaced: 4 });
  });

  it('exports TMX that imports back entry for entry', async () => {
    const { create, upload, entries, call } = await account();
    const original = await create({ name: 'Original' });
    await upload(original.id, CAT_TOOL_TMX);
    await call('POST', `/${original.id}/entries`, { json: { source_lang: 'de', target_lang: 'en', source: 'Hallo {name}, <i>willkommen</i>!', target: 'Hello {name}, <i>welcome</i>!' } });

    const exported = await call('GET', `/${original.id}/export`);
    expect(exported.status).toBe(200);
    expect(exported.headers.get('content-type')).toBe('application/x-tmx+xml; charset=utf-8');
    expect(exported.headers.get('content-disposition')).toBe(`attachment; filename="Original.tmx"; filename*=UTF-8''Original.tmx`);
    expect(exported.text).toContain('<seg>Click <bpt i="1" x="1">&lt;b&gt;</bpt>Save<ept i="1">&lt;/b&gt;</ept> to keep <ph x="2">{count}</ph> files.</seg>');

    const copy = await create({ name: 'Copy' });
    const imported = await upload(copy.id, exported.text, 'application/xml', '?format=tmx');
    expect(imported.body).toMatchObject({ added: 5, replaced: 0, skipped: {} });
    const content = (list: Record<string, unknown>[]) => list.map(({ source_lang, target_lang, source, target, source_masked, target_masked }) => ({ source_lang, target_lang, source, target, source_masked, target_masked }));
    expect(content(await entries(copy.id))).toEqual(content(await entries(original.id)));
  });

  it('imports XLIFF 1.2, XLIFF 2 and PO files', async () => {
    const { create, upload, entries } = await account();
    const memory = await create({ name: 'Files', source: 'en' });
    const xliff = `<?xml version="1.0"?>
<xliff xmlns="urn:oasis:names:tc:xliff:document:2.0" version="2.0" srcLang="en" trgLang="nl">
  <file id="f"><unit id="u"><originalData><data id="d1">%s</data></originalData>
    <segment><source>Delete <ph id="1" dataRef="d1"/>?</source><target>Verwijder <ph id="1" dataRef="d1"/>?</target></segment>
  </unit></file>
</xliff>`;
    expect((await upload(memory.id, xliff, 'application/xliff+xml')).body).toMatchObject({ added: 1, skipped: {} });
    const xcode = `<?xml version="1.0" encoding="UTF-8"?>
<xliff xmlns="urn:oasis:names:tc:xliff:document:1.2" version="1.2">
  <file original="App/en.lproj/Localizable.strings" source-language="en" target-language="da" datatype="plaintext">
    <header><tool tool-id="com.apple.dt.xcode" tool-name="Xcode" tool-version="15.0"/></header>
    <body>
      <trans-unit id="Undo" xml:space="preserve"><source>Undo</source><target>Fortryd</target><note>Menu item</note></trans-unit>
      <trans-unit id="Redo" xml:space="preserve"><source>Redo</source><target state="new">Redo</target></trans-unit>
    </body>
  </file>
</xliff>`;
    expect((await upload(memory.id, xcode, 'application/xliff+xml')).body).toMatchObject({ added: 1, skipped: { untranslated: 1 } });
    const po = 'msgid ""\nmsgstr ""\n"Language: sv\\n"\n"Content-Type: text/plain; charset=UTF-8\\n"\n\nmsgid "Open %s"\nmsgstr "Öppna %s"\n\n#, fuzzy\nmsgid "Close"\nmsgstr "Stäng"\n';
    expect((await upload(memory.id, po, 'text/x-gettext-translation')).body).toMatchObject({ added: 1, skipped: { fuzzy: 1 } });
    expect((await entries(memory.id)).map((entry) => [entry.target_lang, entry.source, entry.target])).toEqual([
      ['nl', 'Delete %s?', 'Verwijder %s?'],
      ['da', 'Undo', 'Fortryd'],
      ['sv', 'Open %s', 'Öppna %s'],
    ]);
  });

  it.each([
    ['TMX that is not well-formed', 'application/x-tmx+xml', tmx([['One', 'Eins']]).replace('</body>', ''), 'The TMX file is not well-formed XML: line'],
    ['TMX with a variant without language', 'application/x-tmx+xml', tmx([['One', 'Eins']]).replace('<tuv xml:lang="de">', '<tuv>'), 'The TMX file is invalid: line 5: <tuv> has no xml:lang'],
    ['XLIFF 1.0', 'application/xliff+xml', '<?xml version="1.0"?>\n<xliff version="1.0"><file source-language="en" target-language="de"/></xliff>', 'XLIFF 1.0 is not supported'],
    ['XLIFF with HTML in a segment', 'application/xliff+xml', '<xliff version="2.0" srcLang="en" trgLang="de">\n<file id="f">\n<unit id="u">\n<segment><source>a <b>b</b></source><target>a</target></segment>\n</unit>\n</file>\n</xliff>', 'line 4: <b> is not allowed in <source>'],
    ['PO with an unescaped quote', 'text/x-po', 'msgid ""\nmsgstr "Language: de\\n"\n\nmsgid "Save"\nmsgstr "Spei"chern"\n', 'The PO file is invalid: Invalid key name "chern" at line 5'],
  ])('refuses %s with 422 naming the line or element, and writes nothing', async (_, contentType, file, message) => {
    const { create, upload, call } = await account();
    const memory = await create({ name: 'm', source: 'en' });
    const res = await upload(memory.id, file, contentType);
    expect(res.status).toBe(422);
    expect(res.body).toEqual({ error: 'unsupported_language', message: expect.stringContaining(message) });
    expect((await call('GET', `/${memory.id}`)).body.memory.entry_count).toBe(0);
  });

  it('imports all or nothing: one bad unit at the end leaves the memory as it was', async () => {
    const { create, upload, entries } = await account();
    const memory = await create();
    const units = Array.from({ length: 50 }, (_, i): [string, string] => [`Sentence ${i}`, `Satz ${i}`]);
    const file = tmx([...units, ['x'.repeat(5001), 'zu lang']]);
    const res = await upload(memory.id, file);
    expect(res.status).toBe(422);
    expect(res.body.message).toBe('line 55: the source is longer than 5000 characters');
    expect(await entries(memory.id)).toEqual([]);
  });

  it('refuses files over 20 MiB, an import that would take the memory over its limit, and bodies of other types', async () => {
    const { create, upload, call } = await account();
    const memory = await create();
    const big = await upload(memory.id, `${tmx([['a', 'b']])}${' '.repeat(20 * 1024 * 1024)}`);
    expect(big.status).toBe(413);
    expect(big.body).toEqual({ error: 'payload_too_large', message: 'The request body exceeds the size limit' });

    // A memory near its limit takes no import that would pass it, in one transaction with the count.
    await app.get(DataSource).query('UPDATE translation.memories SET entry_count = 99999 WHERE id = $1', [memory.id]);
    const over = await upload(memory.id, tmx([['One', 'Eins'], ['Two', 'Zwei']]));
    expect(over.status).toBe(413);
    expect(over.body.message).toBe('The memory would hold 100001 entries; a memory holds at most 100000');
    expect((await call('GET', `/${memory.id}/entries`)).body.entries).toEqual([]);
    const fits = await upload(memory.id, tmx([['One', 'Eins']]));
    expect(fits.body).toMatchObject({ added: 1, memory: { entry_count: 100_000 } });

    expect(await upload(memory.id, 'a,b\n', 'text/csv')).toMatchObject({ status: 415 });
    expect((await call('POST', `/${memory.id}/import`, { json: { file: 'x' } })).body).toEqual({
      error: 'unsupported_media_type',
      message: 'Send the file as the body with its media type: application/x-tmx+xml, application/xliff+xml, text/x-gettext-translation, text/x-po, application/xml, text/xml, application/octet-stream',
    });
    expect((await upload(memory.id, tmx([['a', 'b']]), 'application/xml')).body.message).toBe(
      'Say which format the file has: ?format=tmx, ?format=xliff or ?format=po (or send it with its own media type)',
    );
    expect((await http(url, 'POST', '/api/v1/glossaries', { token: (await account()).key.plainKey, body: tmx([]), headers: { 'content-type': 'application/xml' } })).body).toEqual({
      error: 'unsupported_media_type',
      message: 'This endpoint does not accept application/xml',
    });
  });

  it('refuses a file with more sources than a memory holds before writing any', async () => {
    const { create, upload } = await account();
    const memory = await create();
    const units = Array.from({ length: 100_001 }, (_, i): [string, string] => [`m${i}`, `n${i}`]);
    // One source twice: the file holds 100,001 sources, not 100,002.
    const many = await upload(memory.id, tmx([...units, ['m7', 'n7']]));
    expect(many.status).toBe(413);
    expect(many.body).toEqual({ error: 'payload_too_large', message: 'The memory would hold 100001 entries; a memory holds at most 100000' });
  }, 120_000);

  it('lists entries page by page and searches them; adds, edits and deletes one', async () => {
    const { create, call, upload } = await account();
    const memory = await create({ name: 'm', source: 'en' });
    await upload(memory.id, tmx([['Open the file', 'Datei öffnen'], ['Close the file', 'Datei schließen'], ['Open a window', 'Fenster öffnen']]));

    const first = await call('GET', `/${memory.id}/entries?limit=2`);
    expect(first.body.entries.map((e: { source: string }) => e.source)).toEqual(['Open the file', 'Close the file']);
    const second = await call('GET', `/${memory.id}/entries?limit=2&cursor=${first.body.next_cursor}`);
    expect(second.body).toMatchObject({ entries: [{ source: 'Open a window' }], next_cursor: null });
    expect((await call('GET', `/${memory.id}/entries?q=OPEN`)).body.entries.map((e: { source: string }) => e.source)).toEqual(['Open the file', 'Open a window']);
    expect((await call('GET', `/${memory.id}/entries?q=schlie`)).body.entries.map((e: { source: string }) => e.source)).toEqual(['Close the file']);
    expect((await call('GET', `/${memory.id}/entries?cursor=abc`)).status).toBe(422);

    const added = await call('POST', `/${memory.id}/entries`, { json: { source_lang: 'en', target_lang: 'de', source: 'Hi {name}', target: 'Hallo {name}' } });
    expect(added.status).toBe(201);
    expect(added.body.entry).toMatchObject({ source: 'Hi {name}', target: 'Hallo {name}', source_masked: 'Hi <x id="1"/>', origin: 'api', usage_count: 0 });
    const { id } = added.body.entry;
    const edited = await call('PATCH', `/${memory.id}/entries/${id}`, { json: { target: 'Servus {name}' } });
    expect(edited.body.entry).toMatchObject({ id, source: 'Hi {name}', target: 'Servus {name}', target_masked: 'Servus <x id="1"/>' });
    // Editing the source to another entry's source replaces that entry.
    const merged = await call('PATCH', `/${memory.id}/entries/${id}`, { json: { source: 'Open  the file' } });
    expect(merged.body.entry).toMatchObject({ id, source: 'Open  the file', target: 'Servus {name}' });
    expect((await call('GET', `/${memory.id}`)).body.memory.entry_count).toBe(3);
    expect(await call('DELETE', `/${memory.id}/entries/${id}`)).toMatchObject({ status: 200, body: { ok: true } });
    expect((await call('GET', `/${memory.id}`)).body.memory.entry_count).toBe(2);

    for (const [json, message] of [
      [{ source_lang: 'de', target_lang: 'en', source: 'a', target: 'b' }, 'the source is in "de", and this memory holds sources in "en"'],
      [{ source_lang: 'en', target_lang: 'en', source: 'a', target: 'b' }, 'the translation is into the source language "en"'],
      [{ source_lang: 'en', target_lang: 'de', source: ' ', target: 'b' }, 'the source is empty'],
      [{ source_lang: 'en', target_lang: 'de', source: 'a\u0001', target: 'b' }, 'the source holds a control character'],
    ] as const) {
      expect((await call('POST', `/${memory.id}/entries`, { json })).body).toEqual({ error: 'unsupported_language', message: expect.stringContaining(message) });
    }
    expect((await call('PATCH', `/${memory.id}/entries/${first.body.entries[0].id}`, { json: {} })).status).toBe(422);
  });

  it('refuses text that no entry can hold with 422, NUL included, which Postgres could not even compare', async () => {
    const { create, call, upload } = await account();
    const memory = await create();
    for (const [method, path, options, message] of [
      ['POST', '', { json: { name: 'a\u0000b' } }, 'The name holds a control character'],
      ['GET', '/suggestions?source=en&target=de&q=a%00b', {}, 'q holds a control character'],
      ['GET', `/${memory.id}/entries?q=a%00b`, {}, 'q holds a control character'],
      ['POST', `/${memory.id}/entries`, { json: { source_lang: 'en', target_lang: 'de', source: 'a', target: 'b\u0000' } }, 'the translation holds a control character'],
    ] as const) {
      const res = await call(method, path, options);
      expect(res.status, `${method} ${path}`).toBe(422);
      expect(res.body).toEqual({ error: 'unsupported_language', message: expect.stringContaining(message) });
    }
    const po = await upload(memory.id, 'msgid "a\u0000"\nmsgstr "b"\n', 'text/x-po', '?source=en&target=de');
    expect(po.body).toEqual({ error: 'unsupported_language', message: 'msgid "a\u0000": the source holds a control character or a broken surrogate pair, which no memory file can carry' });
  });

  it('suggests the exact entry first, then similar ones by similarity, from every memory of the mode', async () => {
    const { create, upload, call, key } = await account();
    const ui = await create({ name: 'UI' });
    const help = await create({ name: 'Help' });
    await upload(ui.id, tmx([['Save the files', 'Dateien speichern'], ['Delete the file now', 'Datei jetzt löschen'], ['Completely unrelated words', 'Ganz andere Wörter']]));
    await upload(help.id, tmx([['Save  the file', 'Die Datei speichern'], ['Save all files', 'Alle Dateien speichern']]));

    const res = await call('GET', `/suggestions?source=en&target=de&q=${encodeURIComponent('Save the file')}`);
    expect(res.status).toBe(200);
    const suggestions = res.body.suggestions as { source: string; target: string; match: string; similarity: number; memory: { name: string }; origin: string }[];
    expect(suggestions[0]).toMatchObject({ source: 'Save  the file', target: 'Die Datei speichern', match: 'exact', similarity: 1, memory: { id: help.id, name: 'Help' }, origin: 'import', provenance: { format: 'tmx', tool: 'test' } });
    expect(suggestions[1]).toMatchObject({ source: 'Save the files', match: 'fuzzy', memory: { name: 'UI' } });
    for (const fuzzy of suggestions.slice(1)) {
      expect(fuzzy.match).toBe('fuzzy');
      expect(fuzzy.similarity).toBeGreaterThanOrEqual(0.4);
      expect(fuzzy.similarity).toBeLessThan(1);
    }
    const scores = suggestions.map((s) => s.similarity);
    expect(scores).toEqual([...scores].sort((a, b) => b - a));
    expect(suggestions.map((s) => s.source)).not.toContain('Completely unrelated words');

    expect((await call('GET', `/suggestions?source=en&target=de&q=${encodeURIComponent('Save the file')}&min_similarity=0.9`)).body.suggestions.map((s: { source: string }) => s.source)).toEqual(['Save  the file']);
    expect((await call('GET', '/suggestions?source=en&target=de&q=Save%20the%20file&limit=1')).body.suggestions).toHaveLength(1);
    expect((await call('GET', '/suggestions?source=en&target=fr&q=Save%20the%20file')).body.suggestions).toEqual([]);
    const live = await account({ sandbox: false, accountId: key.accountId });
    expect((await live.call('GET', '/suggestions?source=en&target=de&q=Save%20the%20file')).body.suggestions).toEqual([]);
    expect((await call('GET', '/suggestions?source=xx&target=de&q=a')).status).toBe(422);
    expect((await call('GET', '/suggestions?source=en&target=de')).body.message).toContain('q must not be empty');
  });

  describe('learning from reviewers', () => {
    const LANGUAGE = 'lv';
    const suggest = (caller: Awaited<ReturnType<typeof account>>, q: string) =>
      caller.call('GET', `/suggestions?source=en&target=${LANGUAGE}&q=${encodeURIComponent(q)}`).then((res) => res.body.suggestions);

    async function review(key: TestKey, source: string, translation: string, verdict: object, format?: 'text' | 'json') {
      const job = await insertJobInReview(app, { key, target: LANGUAGE, source, translation, format });
      const { reviewer, token } = await app.get(ReviewerService).create([LANGUAGE], { accountId: key.accountId });
      const next = await http(url, 'GET', `/api/v1/review/tasks/next?lang=${LANGUAGE}`, { token });
      expect(next.body.task.job).toBe(job);
      const answered = await http(url, 'POST', `/api/v1/review/tasks/${next.body.task.id}`, { token, json: verdict });
      expect(answered.status).toBe(200);
      return { job, reviewer: reviewer.id };
    }

    it("puts a reviewer's edit into the default memory of the job's account and mode, paragraph by paragraph", async () => {
      const owner = await account({ sandbox: false });
      const { job, reviewer } = await review(owner.key, 'Save the file.\n\nClose the {name} window.', 'Saglabā failu.\n\nAizver {name} logu.', {
        verdict: 'edit',
        translation: 'Saglabājiet failu.\n\nAizveriet {name} logu.',
      });

      const memories = (await owner.call('GET')).body.memories;
      expect(memories).toEqual([expect.objectContaining({ name: 'default', default: true, entry_count: 2 })]);
      expect(await suggest(owner, 'Save the file.')).toEqual([
        expect.objectContaining({ match: 'exact', source: 'Save the file.', target: 'Saglabājiet failu.', origin: 'reviewer_edit', provenance: { job, reviewer } }),
      ]);
      expect((await suggest(owner, 'Close the {title} window.'))[0]).toMatchObject({ match: 'exact', target: 'Aizveriet {name} logu.', source_masked: 'Close the <x id="1"/> window.' });

      // Neither another account nor the sandbox of the same account learns it.
      expect(await suggest(await account({ sandbox: false }), 'Save the file.')).toEqual([]);
      expect(await suggest(await account({ sandbox: true, accountId: owner.key.accountId }), 'Save the file.')).toEqual([]);
    });

    it('learns an approval too, and from JSON the strings at the same paths', async () => {
      const owner = await account({ sandbox: false });
      await review(owner.key, 'Open the door.', 'Atver durvis.', { verdict: 'approve' });
      expect((await suggest(owner, 'Open the door.'))[0]).toMatchObject({ target: 'Atver durvis.', origin: 'reviewer_approval' });

      const source = JSON.stringify({ menu: { open: 'Open', close: 'Close' }, count: 3 });
      await review(owner.key, source, JSON.stringify({ menu: { open: 'Atvērt', close: 'Aizvērt' }, count: 3 }), {
        verdict: 'edit',
        translation: JSON.stringify({ menu: { open: 'Atvērt', close: 'Slēgt' }, count: 3 }),
      }, 'json');
      expect((await suggest(owner, 'Close'))[0]).toMatchObject({ match: 'exact', target: 'Slēgt', origin: 'reviewer_edit' });
      expect((await suggest(owner, 'Open'))[0]).toMatchObject({ match: 'exact', target: 'Atvērt' });
    });

    it("teaches a sandbox job's simulated approval to the sandbox memory only", async () => {
      const sandbox = await account({ sandbox: true });
      const job = await insertJobInReview(app, { key: sandbox.key, target: LANGUAGE, source: 'Print the page.', translation: 'Izdrukā lapu.' });
      await expectEventually(
        async () => {
          await app.get(ReviewTasks).approveSimulated();
          expect((await suggest(sandbox, 'Print the page.'))[0]).toMatchObject({ target: 'Izdrukā lapu.', origin: 'reviewer_approval', provenance: { job, reviewer: null } });
        },
        { timeoutMs: 15_000, intervalMs: 500 },
      );
      expect(await suggest(await account({ sandbox: false, accountId: sandbox.key.accountId }), 'Print the page.')).toEqual([]);
    });
  });

  it('is described in the OpenAPI document', async () => {
    const { body } = await http(url, 'GET', '/openapi.json');
    expect(Object.keys(body.paths['/api/v1/memories'])).toEqual(['post', 'get']);
    expect(Object.keys(body.paths['/api/v1/memories/{id}'])).toEqual(['get', 'delete']);
    expect(Object.keys(body.paths['/api/v1/memories/{id}/entries/{entryId}'])).toEqual(['get', 'patch', 'delete']);
    const importRoute = body.paths['/api/v1/memories/{id}/import'].post;
    expect(Object.keys(importRoute.responses)).toEqual(expect.arrayContaining(['200', '401', '404', '413', '415', '422', '429']));
    expect(Object.keys(importRoute.requestBody.content)).toEqual(expect.arrayContaining(['application/x-tmx+xml', 'application/xliff+xml', 'text/x-gettext-translation']));
    expect(body.paths['/api/v1/memories/{id}/export'].get.responses['200'].content).toHaveProperty('application/x-tmx+xml');
    expect(body.paths['/api/v1/memories/suggestions'].get.parameters.map((p: { name: string }) => p.name)).toEqual(['source', 'target', 'q', 'limit', 'min_similarity']);
  });
});
