import type { Browser, Page } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { acceptInvitation, consolePage, heading, inspectPage, launchChromium, operatorAccount } from './console-browser';

/** axe's moderate findings count too on these pages. */
const STRICT = { moderate: true };
/** Two admin commands, each a start of a built app, then the page at two widths. */
const SETUP_MS = 120_000;

/** A TMX file as a CAT tool exports one: English sources with German and Japanese variants, and a unit nobody translated. */
const TMX = `<?xml version="1.0" encoding="UTF-8"?>
<tmx version="1.4">
  <header srclang="en" creationtool="Browser test" creationtoolversion="1" segtype="sentence" o-tmf="t" adminlang="en" datatype="plaintext"/>
  <body>
    <tu><tuv xml:lang="en"><seg>Save the file</seg></tuv><tuv xml:lang="de"><seg>Datei speichern</seg></tuv><tuv xml:lang="ja"><seg>保存</seg></tuv></tu>
    <tu><tuv xml:lang="en"><seg>Open the file</seg></tuv><tuv xml:lang="de"><seg>Datei öffnen</seg></tuv></tu>
    <tu><tuv xml:lang="en"><seg>Click <bpt i="1">&lt;b&gt;</bpt>Cancel<ept i="1">&lt;/b&gt;</ept> to stop</seg></tuv><tuv xml:lang="de"><seg>Klicken Sie auf <bpt i="1">&lt;b&gt;</bpt>Abbrechen<ept i="1">&lt;/b&gt;</ept></seg></tuv></tu>
    <tu><tuv xml:lang="en"><seg>Untranslated</seg></tuv><tuv xml:lang="de"><seg></seg></tuv></tu>
  </body>
</tmx>
`;
/** The same file with a variant left open on line 5, so its unit closes the wrong element. */
const BROKEN_TMX = TMX.replace('<seg>Datei speichern</seg></tuv>', '<seg>Datei speichern</seg>');

const tmxFile = (name: string, text: string) => ({ name, mimeType: 'application/x-tmx+xml', buffer: Buffer.from(text) });

describe('the translation memory page in a browser: a customer imports, searches, edits, deletes and exports', () => {
  let browser: Browser;
  let page: Page;

  beforeAll(async () => {
    browser = await launchChromium();
    page = await consolePage(browser);
  });
  afterAll(() => browser?.close());

  it("opens a new account's Translation memory page: the default memory and the limits", async () => {
    await acceptInvitation(page, (await operatorAccount({ sandbox: true })).invitationLink);
    await page.getByRole('navigation', { name: 'Console sections' }).getByRole('link', { name: 'Translation memory' }).click();
    await expect.poll(() => heading(page)).toBe('Translation memory');
    await page.getByRole('row', { name: /^default/ }).waitFor();
    expect(await page.getByTestId('memory-limits').textContent()).toBe(
      'This mode holds 1 of at most 20 memories. Each memory holds up to 100,000 entries; an import file may be up to 20 MiB.',
    );
    await inspectPage(page, 'memories', STRICT);
  }, SETUP_MS);

  it('creates a memory after saying what a bad name lacks', async () => {

    await page.getByLabel('Source language', { exact: true }).fill('e1');
    await page.getByRole('button', { name: 'Create', exact: true }).click();
    const name = page.getByRole('textbox', { name: 'Name' });
    await expect.poll(() => name.getAttribute('aria-invalid')).toBe('true');
    expect(await page.getByText('Give the memory a name.').isVisible()).toBe(true);
    expect(await page.getByText('Write a two-letter language code such as en').isVisible()).toBe(true);
    await inspectPage(page, 'memory-create-refused', STRICT);

    await name.fill('default');
    await page.getByLabel('Source language', { exact: true }).fill('en');
    await page.getByRole('button', { name: 'Create', exact: true }).click();
    // The API's refusal, beside the field it is about.
    await expect.poll(() => page.getByRole('alert').filter({ hasText: 'belongs to the memory reviewers' }).count()).toBe(1);
    expect(await name.getAttribute('aria-invalid')).toBe('true');

    await name.fill('Product UI');
    await page.getByRole('button', { name: 'Create', exact: true }).click();
    await page.getByRole('status').filter({ hasText: 'The memory “Product UI” was created.' }).waitFor();
    await page.getByRole('row', { name: /Product UI/ }).waitFor();
    expect(await page.getByRole('row', { name: /Product UI/ }).textContent()).toContain('0 of 100,000');
  });

  it('refuses a broken TMX file naming its line, beside the file field, and imports a good one with a summary', async () => {
    await page.getByRole('link', { name: 'Product UI', exact: true }).click();
    await expect.poll(() => heading(page)).toBe('Product UI');
    await page.getByText('This memory has no entries yet: import a file.').waitFor();

    await page.getByLabel('TMX, XLIFF or PO file').setInputFiles(tmxFile('broken.tmx', BROKEN_TMX));
    await page.getByRole('button', { name: 'Import', exact: true }).click();
    const refusal = page.locator('#memory-file-error');
    await refusal.waitFor();
    expect(await refusal.textContent()).toContain('The TMX file is not well-formed XML: line 5');
    expect(await refusal.textContent()).toContain('Nothing was imported. Correct the file where the message says and import it again.');
    expect(await page.getByLabel('TMX, XLIFF or PO file').getAttribute('aria-invalid')).toBe('true');
    await inspectPage(page, 'memory-import-refused', STRICT);

    await page.getByLabel('TMX, XLIFF or PO file').setInputFiles(tmxFile('ui-export.tmx', TMX));
    await page.getByRole('button', { name: 'Import', exact: true }).click();
    const summary = page.getByTestId('import-summary');
    await summary.waitFor();
    const said = await summary.textContent();
    expect(said).toContain('“ui-export.tmx” was imported into “Product UI”.');
    expect(said).toContain('Added: 3');
    expect(said).toContain('Updated: 0');
    expect(said).toContain('Skipped: 2');
    expect(await summary.locator('li li').allTextContents()).toEqual(['1 in a language that is not one of the 24 official EU languages', '1 without a translation']);
    await expect.poll(() => page.getByRole('row').count()).toBe(4);
    expect(await page.getByRole('row', { name: /Click <b>Cancel<\/b> to stop/ }).textContent()).toContain('Imported from a TMX file (Browser test)');
    await inspectPage(page, 'memory-imported', STRICT);
  });

  it('searches the entries, edits one after saying an empty translation will not do, and deletes another', async () => {
    await page.getByLabel('Search sources and translations').fill('ÖFFNEN');
    await expect.poll(() => page.getByRole('row').count()).toBe(2);
    await inspectPage(page, 'memory-search', STRICT);

    await page.getByRole('button', { name: 'Edit “Open the file”' }).click();
    const dialog = page.getByRole('dialog');
    const translation = dialog.getByLabel('Translation (German)');
    await translation.fill(' ');
    await dialog.getByRole('button', { name: 'Save' }).click();
    await dialog.getByText('Write a text: an entry cannot be empty.').waitFor();
    await inspectPage(page, 'memory-entry-edit', STRICT);
    await translation.fill('Öffnen Sie die Datei');
    await dialog.getByRole('button', { name: 'Save' }).click();
    await expect.poll(() => page.getByRole('row', { name: /Open the file/ }).textContent()).toContain('Öffnen Sie die Datei');
    expect(await page.getByRole('row', { name: /Open the file/ }).textContent()).toContain('Changed in the console');

    await page.getByLabel('Search sources and translations').fill('');
    await expect.poll(() => page.getByRole('row').count()).toBe(4);
    const row = page.getByRole('row', { name: /Save the file/ });
    await row.getByRole('button', { name: 'Delete' }).click();
    await inspectPage(page, 'memory-entry-delete-confirm', STRICT);
    await page.getByRole('dialog').getByRole('button', { name: 'Delete' }).click();
    await page.getByRole('status').filter({ hasText: 'The entry “Save the file” was deleted.' }).waitFor();
    await expect.poll(() => page.getByRole('row').count()).toBe(3);
    expect(await page.getByRole('heading', { level: 1 }).textContent()).toBe('Product UI');
    await expect.poll(() => page.locator('.intro').textContent()).toContain('2 of 100,000 entries');
  });

  it('downloads the memory as TMX holding the edit, and deletes the memory after confirmation', async () => {
    const href = await page.getByRole('link', { name: 'Download TMX' }).getAttribute('href');
    const download = await page.request.get(href!);
    expect(download.headers()['content-disposition']).toContain('filename="Product UI.tmx"');
    const exported = await download.text();
    expect(exported).toContain('<seg>Öffnen Sie die Datei</seg>');
    expect(exported).toContain('<bpt i="1" x="1">&lt;b&gt;</bpt>Cancel<ept i="1">&lt;/b&gt;</ept>');
    expect(exported).not.toContain('Datei speichern');

    await page.getByRole('link', { name: 'All memories' }).click();
    await expect.poll(() => heading(page)).toBe('Translation memory');
    const row = page.getByRole('row', { name: /Product UI/ });
    await row.getByRole('button', { name: 'Delete' }).click();
    await page.getByRole('dialog').getByRole('button', { name: 'Cancel' }).click();
    expect(await row.isVisible()).toBe(true);
    await row.getByRole('button', { name: 'Delete' }).click();
    await page.getByRole('dialog').getByRole('button', { name: 'Delete' }).click();
    await page.getByRole('status').filter({ hasText: 'The memory “Product UI” was deleted with its entries.' }).waitFor();
    await expect.poll(() => row.count()).toBe(0);
  });
});
