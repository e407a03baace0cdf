import { ApiError } from '@platform/errors';
import { describe, expect, it } from 'vitest';
import { maskPair, maskTokens, readable, tokensOfPlainText } from '../inline-text';
import type { MemoryEntry } from '../memory-entry.entity';
import { entryRow, type EntryRow } from '../memory-entry-row';
import type { MemoryFile } from './memory-file';
import { readMemoryFile } from './read-memory-file';
import { tmxDocument } from './tmx-writer';

const bytes = (text: string) => new TextEncoder().encode(text);
/** What a file's units become: the stored masked forms and the readable copies. */
const stored = (file: MemoryFile) =>
  file.units.map((unit) => {
    const { source, target } = maskPair(unit.source, unit.target);
    return { pair: `${unit.sourceLang}-${unit.targetLang}`, source: source.text, target: target.text, readable: readable(target) };
  });
const refusal = async (read: () => Promise<unknown>): Promise<string> => {
  try {
    await read();
  } catch (error) {
    expect(error).toBeInstanceOf(ApiError);
    expect((error as ApiError).getStatus()).toBe(422);
    return (error as ApiError).message;
  }
  return expect.fail('the file was read');
};

/** The layout CAT tools export: DOCTYPE, a header with srclang, regional language tags, codes holding escaped markup. */
const CAT_TOOL_TMX = `<?xml version="1.0" encoding="UTF-8"?>
<!DOCTYPE tmx SYSTEM "tmx14.dtd">
<tmx version="1.4">
  <header creationtool="SDL Language Platform" creationtoolversion="8.0" o-tmf="SDL TM8 Format" datatype="xml" segtype="sentence" adminlang="en-US" srclang="en-US">
    <prop type="x-Domain:SinglePicklist">UI</prop>
  </header>
  <body>
    <tu creationdate="20240312T101500Z" creationid="ANA">
      <prop type="x-Context">settings</prop>
      <tuv xml:lang="en-US"><seg>Click <bpt i="1">&lt;b&gt;</bpt>Save<ept i="1">&lt;/b&gt;</ept> to keep <ph x="2">{count}</ph> files.</seg></tuv>
      <tuv xml:lang="de-DE"><seg>Klicken Sie auf <bpt i="1">&lt;b class="x"&gt;</bpt>Speichern<ept i="1">&lt;/b&gt;</ept>, um <ph x="2">{count}</ph> Dateien zu behalten.</seg></tuv>
      <tuv xml:lang="fr-FR"><seg>Cliquez sur <bpt i="1">&lt;b&gt;</bpt><hi type="b">Enregistrer</hi><ept i="1">&lt;/b&gt;</ept> pour garder <ph x="2">{count}</ph> fichiers.</seg></tuv>
    </tu>
    <tu>
      <tuv xml:lang="en-US"><seg>Line<ph>&lt;br/&gt;</ph>break &amp; <it pos="begin">&lt;i&gt;</it>more</seg></tuv>
      <tuv xml:lang="ja-JP"><seg>改行</seg></tuv>
      <tuv xml:lang="de-DE"><seg> </seg></tuv>
      <tuv xml:lang="sv-SE"><seg>Rad<ph>&lt;br/&gt;</ph>brytning &amp; <it pos="begin">&lt;i&gt;</it>mer</seg></tuv>
    </tu>
    <tu>
      <tuv xml:lang="de-DE"><seg>Nur Deutsch</seg></tuv>
    </tu>
  </body>
</tmx>
`;

describe('TMX', () => {
  it('reads a CAT tool export: one entry per other language, codes as placeholders tied across languages', async () => {
    const file = await readMemoryFile('tmx', bytes(CAT_TOOL_TMX), {});
    expect(file).toMatchObject({ format: 'tmx', tool: 'SDL Language Platform', skipped: { language: 1, untranslated: 1, no_source: 1 } });
    expect(stored(file)).toEqual([
      {
        pair: 'en-de',
        source: 'Click <g id="1">Save</g> to keep <x id="2"/> files.',
        target: 'Klicken Sie auf <g id="1">Speichern</g>, um <x id="2"/> Dateien zu behalten.',
        readable: 'Klicken Sie auf <b class="x">Speichern</b>, um {count} Dateien zu behalten.',
      },
      {
        pair: 'en-fr',
        source: 'Click <g id="1">Save</g> to keep <x id="2"/> files.',
        target: 'Cliquez sur <g id="1">Enregistrer</g> pour garder <x id="2"/> fichiers.',
        readable: 'Cliquez sur <b>Enregistrer</b> pour garder {count} fichiers.',
      },
      { pair: 'en-sv', source: 'Line<x id="1"/>break &amp; <x id="2"/>more', target: 'Rad<x id="1"/>brytning &amp; <x id="2"/>mer', readable: 'Rad<br/>brytning & <i>mer' },
    ]);
    // The same segment sent as plain text (or by the pipeline) has the same masked form, so it matches.
    expect(maskTokens(tokensOfPlainText('Click <b>Save</b> to keep {count} files.')).text).toBe(stored(file)[0].source);
  });

  it('reads a segment without codes as plain text, its variables and markup codes as in a request', async () => {
    const tmx = `<tmx version="1.4"><header srclang="en"/><body><tu><tuv xml:lang="en"><seg>{{count}} files for &lt;b&gt;{user}&lt;/b&gt;</seg></tuv><tuv xml:lang="de"><seg>{{count}} Dateien für &lt;b&gt;{user}&lt;/b&gt;</seg></tuv></tu></body></tmx>`;
    const [unit] = (await readMemoryFile('tmx', bytes(tmx), {})).units;
    const row = entryRow(unit, 'import', {}) as EntryRow;
    expect(row).toMatchObject({ sourceText: '<x id="1"/> files for <g id="2"><x id="3"/></g>', targetText: '<x id="1"/> Dateien für <g id="2"><x id="3"/></g>' });
    expect(row.sourceText).toBe(maskTokens(tokensOfPlainText('{{count}} files for <b>{user}</b>')).text);
  });

  it('reads UTF-16 with its byte order mark, as some tools save TMX', async () => {
    const utf16 = Buffer.concat([Buffer.from([0xff, 0xfe]), Buffer.from(CAT_TOOL_TMX.replace('UTF-8', 'UTF-16'), 'utf16le')]);
    expect(stored(await readMemoryFile('tmx', utf16, {}))).toEqual(stored(await readMemoryFile('tmx', bytes(CAT_TOOL_TMX), {})));
  });

  it("takes the memory's source language over the file's", async () => {
    const file = await readMemoryFile('tmx', bytes(CAT_TOOL_TMX), { source: 'de' });
    expect(stored(file).map((unit) => unit.pair)).toEqual(['de-en', 'de-fr', 'de-en', 'de-sv']);
  });

  it.each([
    ['a tag left open', '<tmx version="1.4">\n<header srclang="en"/>\n<body>\n<tu><tuv xml:lang="en"><seg>Hi</seg></tuv>\n</body>\n</tmx>', 'The TMX file is not well-formed XML: line 5: unexpected close tag.'],
    ['bytes that are not UTF-8', new Uint8Array([0x3c, 0x74, 0xff]), 'The TMX file is not valid UTF-8 text; save it as UTF-8'],
    ['another root', '<xliff version="2.0"/>', 'The TMX file is invalid: line 1: the root element is <xliff>, not <tmx>'],
    ['no body', '<tmx version="1.4">\n<header srclang="en"/>\n</tmx>', 'The TMX file is invalid: line 1: <tmx> has no <body>'],
    ['a variant without language', '<tmx version="1.4">\n<header srclang="en"/>\n<body>\n<tu>\n<tuv><seg>Hi</seg></tuv>\n</tu>\n</body>\n</tmx>', 'The TMX file is invalid: line 5: <tuv> has no xml:lang'],
    ['a variant without segment', '<tmx version="1.4">\n<header srclang="en"/>\n<body>\n<tu>\n<tuv xml:lang="en"></tuv>\n</tu>\n</body>\n</tmx>', 'The TMX file is invalid: line 5: <tuv> has 0 <seg> elements instead of one'],
    ['markup that is not a TMX code', '<tmx version="1.4">\n<header srclang="en"/>\n<body>\n<tu>\n<tuv xml:lang="en"><seg>Hi <b>you</b></seg></tuv>\n</tu>\n</body>\n</tmx>', 'The TMX file is invalid: line 5: <b> is not allowed in <seg>'],
    ['a bpt without i', '<tmx version="1.4">\n<header srclang="en"/>\n<body>\n<tu>\n<tuv xml:lang="en"><seg><bpt>&lt;b&gt;</bpt>Hi</seg></tuv>\n</tu>\n</body>\n</tmx>', 'The TMX file is invalid: line 5: <bpt> has no i attribute'],
    ['codes nested too deep', `<tmx version="1.4">\n<header srclang="en"/>\n<body>\n<tu>\n<tuv xml:lang="en"><seg>${'<hi>'.repeat(5000)}x${'</hi>'.repeat(5000)}</seg></tuv>\n</tu>\n</body>\n</tmx>`, 'line 5: inline elements nest more than 50 deep'],
    ['no source language', '<tmx version="1.4">\n<header srclang="*all*"/>\n<body>\n<tu>\n<tuv xml:lang="en"><seg>Hi</seg></tuv>\n</tu>\n</body>\n</tmx>', 'The TMX file is invalid: line 4: the file does not say which language is the source'],
  ])('refuses %s with 422 naming the line or element', async (_, xml: string | Uint8Array, message) => {
    expect(await refusal(() => readMemoryFile('tmx', typeof xml === 'string' ? bytes(xml) : xml, {}))).toContain(message);
  });
});

const XLIFF_2 = `<?xml version="1.0" encoding="UTF-8"?>
<xliff xmlns="urn:oasis:names:tc:xliff:document:2.0" version="2.0" srcLang="en-US" trgLang="de-DE">
  <file id="f1" original="app.html">
    <group id="g1">
      <unit id="u1">
        <originalData>
          <data id="d1">&lt;b&gt;</data>
          <data id="d2">&lt;/b&gt;</data>
          <data id="d3">{count}</data>
        </originalData>
        <segment state="translated">
          <source>Click <pc id="1" dataRefStart="d1" dataRefEnd="d2">Save</pc> to keep <ph id="2" dataRef="d3"/> files.</source>
          <target>Klicken Sie auf <pc id="1" dataRefStart="d1" dataRefEnd="d2">Speichern</pc>, um <ph id="2" dataRef="d3"/> Dateien zu behalten.</target>
        </segment>
        <ignorable><source> </source></ignorable>
        <segment>
          <source>A <mrk id="m1" type="term">term</mrk>, a <sc id="3"/>span<ec startRef="3"/> and <cp hex="2014"/>.</source>
          <target>Ein <mrk id="m1" type="term">Begriff</mrk>, ein <sc id="3"/>Bereich<ec startRef="3"/> und <cp hex="2014"/>.</target>
        </segment>
      </unit>
    </group>
    <unit id="u2"><segment><source>Not yet</source></segment></unit>
  </file>
</xliff>
`;

describe('XLIFF 2', () => {
  it('reads every translated segment of every unit, codes tied by their ids, originals from originalData', async () => {
    const file = await readMemoryFile('xliff', bytes(XLIFF_2), {});
    expect(file.skipped).toEqual({ untranslated: 1 });
    expect(stored(file)).toEqual([
      {
        pair: 'en-de',
        source: 'Click <g id="1">Save</g> to keep <x id="2"/> files.',
        target: 'Klicken Sie auf <g id="1">Speichern</g>, um <x id="2"/> Dateien zu behalten.',
        readable: 'Klicken Sie auf <b>Speichern</b>, um {count} Dateien zu behalten.',
      },
      { pair: 'en-de', source: 'A term, a <g id="1">span</g> and —.', target: 'Ein Begriff, ein <g id="1">Bereich</g> und —.', readable: 'Ein Begriff, ein <g id="1">Bereich</g> und —.' },
    ]);
  });

  it.each([
    ['XLIFF 3.0', '<xliff version="3.0"><file/></xliff>', 'The XLIFF file is invalid: line 1: XLIFF 3.0 is not supported; export XLIFF 1.2, 2.0, 2.1 or 2.2'],
    ['no target language', '<xliff version="2.0" srcLang="en"/>', 'line 1: <xliff> has no trgLang, so it holds no translations'],
    ['a language outside the EU', '<xliff version="2.0" srcLang="en" trgLang="ja"/>', 'line 1: trgLang "ja" is not one of the 24 official EU languages'],
    ['another source than the memory', '<xliff version="2.0" srcLang="de" trgLang="en"/>', 'srcLang is "de", and this memory holds sources in "en"'],
    ['a segment without source', '<xliff version="2.0" srcLang="en" trgLang="de">\n<file id="f">\n<unit id="u">\n<segment><target>x</target></segment>\n</unit>\n</file>\n</xliff>', 'line 4: <segment> has no <source>'],
    ['HTML in a segment', '<xliff version="2.0" srcLang="en" trgLang="de">\n<file id="f">\n<unit id="u">\n<segment><source>a <b>b</b></source><target>a</target></segment>\n</unit>\n</file>\n</xliff>', 'line 4: <b> is not allowed in <source>'],
    ['an unclosed element', '<xliff version="2.0" srcLang="en" trgLang="de">\n<file id="f">\n<unit id="u">\n</file>\n</xliff>', 'The XLIFF file is not well-formed XML: line'],
  ])('refuses %s with 422 naming the line or element', async (_, xml, message) => {
    expect(await refusal(() => readMemoryFile('xliff', bytes(xml), { source: 'en' }))).toContain(message);
  });
});

// Segmented, as Okapi and Trados write it, with the codes XLIFF 1.2 has.
const XLIFF_1 = `<?xml version="1.0" encoding="UTF-8"?>
<xliff version="1.2" xmlns="urn:oasis:names:tc:xliff:document:1.2">
  <file original="page.html" source-language="en-GB" target-language="fr-FR" datatype="html">
    <body>
      <group id="g">
        <trans-unit id="1">
          <source>Click <g id="1">Save</g>. Keep <x id="2"/> files.</source>
          <seg-source><mrk mtype="seg" mid="0">Click <g id="1">Save</g>.</mrk> <mrk mtype="seg" mid="1">Keep <x id="2"/> files.</mrk></seg-source>
          <target state="translated"><mrk mtype="seg" mid="0">Cliquez sur <g id="1">Enregistrer</g>.</mrk> <mrk mtype="seg" mid="1"></mrk></target>
        </trans-unit>
        <trans-unit id="2"><source>A <bpt id="3">&lt;i&gt;</bpt>word<ept id="3">&lt;/i&gt;</ept> and <ph id="4">{count}</ph></source><target>Un <bpt id="3">&lt;i&gt;</bpt>mot<ept id="3">&lt;/i&gt;</ept> et <ph id="4">{count}</ph></target></trans-unit>
        <trans-unit id="3" translate="no"><source>ACME</source><target>ACME</target></trans-unit>
        <trans-unit id="4"><source>Later</source><target state="needs-translation"/></trans-unit>
        <trans-unit id="5"><source>No target</source></trans-unit>
      </group>
    </body>
  </file>
</xliff>
`;

describe('XLIFF 1.2', () => {
  it('reads translated units and segments, codes tied by their ids, native code kept as the original', async () => {
    const file = await readMemoryFile('xliff', bytes(XLIFF_1), {});
    expect(file.skipped).toEqual({ untranslated: 3 });
    expect(stored(file)).toEqual([
      { pair: 'en-fr', source: 'Click <g id="1">Save</g>.', target: 'Cliquez sur <g id="1">Enregistrer</g>.', readable: 'Cliquez sur <g id="1">Enregistrer</g>.' },
      { pair: 'en-fr', source: 'A <g id="1">word</g> and <x id="2"/>', target: 'Un <g id="1">mot</g> et <x id="2"/>', readable: 'Un <i>mot</i> et {count}' },
    ]);
  });

  it.each([
    ['a file without source language', '<xliff version="1.2">\n<file target-language="de"/></xliff>', 'line 2: <file> has no source-language'],
    ['a target language outside the EU', '<xliff version="1.2"><file source-language="en" target-language="ja"/></xliff>', 'target-language "ja" is not one of the 24 official EU languages'],
    ['another source than the memory', '<xliff version="1.2"><file source-language="de" target-language="en"/></xliff>', 'source-language is "de", and this memory holds sources in "en"'],
    ['a unit without source', '<xliff version="1.2"><file source-language="en" target-language="de"><body>\n<trans-unit id="1"><target>x</target></trans-unit></body></file></xliff>', 'line 2: <trans-unit> has no <source>'],
    ['HTML in a unit', '<xliff version="1.2"><file source-language="en" target-language="de"><body>\n<trans-unit id="1"><source>a <b>b</b></source><target>a</target></trans-unit></body></file></xliff>', 'line 2: <b> is not allowed in <source>'],
  ])('refuses %s with 422 naming the line or element', async (_, xml, message) => {
    expect(await refusal(() => readMemoryFile('xliff', bytes(xml), { source: 'en' }))).toContain(message);
  });
});

const PO = `msgid ""
msgstr ""
"Project-Id-Version: app 1.0\\n"
"Language: de_DE\\n"
"Content-Type: text/plain; charset=UTF-8\\n"
"Plural-Forms: nplurals=2; plural=(n != 1);\\n"
"X-Generator: Poedit 3.4\\n"

#: src/app.js:10
msgid "Click <b>Save</b> to keep {count} files."
msgstr "Klicken Sie auf <b>Speichern</b>, um {count} Dateien zu behalten."

msgctxt "menu"
msgid "Open"
msgstr "Öffnen"

#, fuzzy
msgid "Close"
msgstr "Schließen"

msgid "One file"
msgid_plural "%d files"
msgstr[0] "Eine Datei"
msgstr[1] "%d Dateien"

msgid "Untranslated"
msgstr ""
`;

describe('PO', () => {
  it('reads translated messages as plain text; plural, fuzzy and untranslated ones are left out and counted', async () => {
    const file = await readMemoryFile('po', bytes(PO), { source: 'en' });
    expect(file).toMatchObject({ tool: 'Poedit 3.4', skipped: { plural: 1, fuzzy: 1, untranslated: 1 } });
    expect(stored(file)).toEqual([
      {
        pair: 'en-de',
        source: 'Click <g id="1">Save</g> to keep <x id="2"/> files.',
        target: 'Klicken Sie auf <g id="1">Speichern</g>, um <x id="2"/> Dateien zu behalten.',
        readable: 'Klicken Sie auf <b>Speichern</b>, um {count} Dateien zu behalten.',
      },
      { pair: 'en-de', source: 'Open', target: 'Öffnen', readable: 'Öffnen' },
    ]);
  });

  it('takes the target from the query when the header has no Language, or the file no header', async () => {
    const file = await readMemoryFile('po', bytes(PO.replace('"Language: de_DE\\n"\n', '')), { source: 'en', target: 'nl' });
    expect(stored(file).map((unit) => unit.pair)).toEqual(['en-nl', 'en-nl']);
    const headless = await readMemoryFile('po', bytes('msgid "Open"\nmsgstr "Öffnen"\n'), { source: 'en', target: 'de' });
    expect(stored(headless)).toEqual([{ pair: 'en-de', source: 'Open', target: 'Öffnen', readable: 'Öffnen' }]);
  });

  it('reads a file in the charset its header names, UTF-8 when it names none', async () => {
    const latin1 = Buffer.from('msgid ""\nmsgstr "Content-Type: text/plain; charset=ISO-8859-1\\n"\n\nmsgid "Open"\nmsgstr "Öffnen"\n', 'latin1');
    expect(stored(await readMemoryFile('po', latin1, { source: 'en', target: 'de' }))[0].target).toBe('Öffnen');
  });

  it.each([
    ['a string across lines', 'msgid "Save"\nmsgstr "Spei\nchern"\n', { source: 'en', target: 'de' }, 'The PO file is invalid: line 2: a string is not closed on its line'],
    ['a repeated msgid', 'msgid "Save"\nmsgstr "Speichern"\n\nmsgid "Save"\nmsgstr "Sichern"\n', { source: 'en', target: 'de' }, 'The PO file is invalid: Duplicate msgid error: entry "Save"'],
    ['an unescaped quote', 'msgid "Save"\nmsgstr "Spei"chern"\n', { source: 'en', target: 'de' }, 'The PO file is invalid: Invalid key name "chern" at line 2'],
    ['no source language', PO, {}, 'a PO file does not say its source language; give the memory a source language or pass ?source='],
    ['no Language', PO.replace('"Language: de_DE\\n"\n', ''), { source: 'en' }, "the header names no Language; pass ?target="],
    ['a Language outside the EU', PO.replace('de_DE', 'ja'), { source: 'en' }, `the header's Language "ja" is not one of the 24 official EU languages`],
  ])('refuses %s with 422', async (_, po, options, message) => {
    expect(await refusal(() => readMemoryFile('po', bytes(po), options))).toContain(message);
  });
});

describe('TMX export', () => {
  it('reads back entry for entry: languages, masked forms and the originals of every code', async () => {
    const rows = [...(await readMemoryFile('tmx', bytes(CAT_TOOL_TMX), {})).units, ...(await readMemoryFile('xliff', bytes(XLIFF_2), {})).units].map(
      (unit) => entryRow(unit, 'import', { format: 'tmx', tool: null }) as EntryRow,
    );
    const at = new Date('2024-05-01T12:00:00Z');
    const entries = rows.map((row, index) => ({ ...row, id: String(index + 1), memoryId: 'm', usageCount: 2, lastUsedAt: null, createdAt: at, updatedAt: at }) as MemoryEntry);
    async function* pages() {
      yield entries.slice(0, 2);
      yield entries.slice(2);
    }
    let tmx = '';
    for await (const chunk of tmxDocument({ name: 'UI & help', source: null }, pages())) tmx += chunk;

    expect(tmx).toContain('<tu srclang="en" creationdate="20240501T120000Z" changedate="20240501T120000Z" usagecount="2">');
    expect(tmx).toContain('<seg>Click <bpt i="1" x="1">&lt;b&gt;</bpt>Save<ept i="1">&lt;/b&gt;</ept> to keep <ph x="2">{count}</ph> files.</seg>');
    const again = (await readMemoryFile('tmx', bytes(tmx), {})).units.map((unit) => entryRow(unit, 'import', { format: 'tmx', tool: null }) as EntryRow);
    const content = (row: EntryRow) => [row.sourceLang, row.targetLang, row.sourceText, row.targetText, row.sourceCodes, row.targetCodes];
    expect(again.map(content)).toEqual(rows.map(content));
  });
});
