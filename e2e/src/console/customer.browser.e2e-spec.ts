import { pollUntil, startWebhookReceiver, type WebhookReceiver } from '@platform/testing';
import type { Browser, Page } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { stack } from '../stack.config';
import { SENTENCE, translationApi } from '../translation.client';
import { acceptInvitation, consolePage, heading, inspectPage, launchChromium, operatorAccount } from './console-browser';

const LOOPBACK = ['127.0.0.1', '::1', 'localhost'];

/** Line 3 has two fields where the header has three. */
const BROKEN_CSV = 'term,es,fr\ncat,gato,chat\nsofa,sofá\n';
const FIXED_CSV = 'term,es,fr\ncat,gato,chat\nsofa,sofá,canapé\n';

const csvFile = (name: string, text: string) => ({ name, mimeType: 'text/csv', buffer: Buffer.from(text) });

/** A section of the console by its menu entry, once its page has loaded. */
async function open(page: Page, section: string, title = section): Promise<void> {
  await page.getByRole('navigation', { name: 'Console sections' }).getByRole('link', { name: section }).click();
  await expect.poll(() => heading(page)).toBe(title);
}

describe('the console in a browser: usage, glossaries, batches and the webhook of an account', () => {
  let browser: Browser;
  let page: Page;
  let receiver: WebhookReceiver;
  let webhookUrl: string;
  let key: string;
  let job: string;

  beforeAll(async () => {
    // A stack outside this machine's loopback (containers) reaches the receiver on every interface.
    receiver = await startWebhookReceiver(undefined, { host: LOOPBACK.includes(stack.webhookHost) ? stack.webhookHost : '0.0.0.0' });
    const host = stack.webhookHost.includes(':') ? `[${stack.webhookHost}]` : stack.webhookHost;
    webhookUrl = `http://${host}:${new URL(receiver.url).port}/hooks`;
    browser = await launchChromium();
    page = await consolePage(browser);
  });
  afterAll(async () => {
    await browser?.close();
    await receiver?.stop();
  });

  it('signs the owner in and creates the sandbox key the API calls below use', async () => {
    const account = await operatorAccount({ sandbox: true });
    await acceptInvitation(page, account.invitationLink);
    await open(page, 'API keys');
    await page.getByLabel('Name', { exact: true }).fill('customer area');
    await page.getByRole('button', { name: 'Create key' }).click();
    key = (await page.getByTestId('secret').textContent())!.trim();
    expect(key).toMatch(/^svc_test_/);
  });

  it('refuses a CSV glossary naming the line in error, then takes the corrected file', async () => {
    await open(page, 'Glossaries');
    await page.getByText('No glossaries in this mode yet.').waitFor();
    await inspectPage(page, 'glossaries-empty');

    await page.getByLabel('Name', { exact: true }).fill('Furniture');
    await page.getByLabel('Source language').fill('en');
    await page.getByLabel('CSV file').setInputFiles(csvFile('furniture.csv', BROKEN_CSV));
    await page.getByRole('button', { name: 'Upload', exact: true }).click();
    const refusal = page.getByRole('alert').filter({ hasText: 'line 3' });
    await refusal.waitFor();
    expect(await refusal.textContent()).toContain('line 3: 2 fields where the header row has 3');
    await inspectPage(page, 'glossary-upload-error');

    await page.getByLabel('CSV file').setInputFiles(csvFile('furniture.csv', FIXED_CSV));
    await page.getByRole('button', { name: 'Upload', exact: true }).click();
    await page.getByRole('status').filter({ hasText: 'The glossary “Furniture” was created with 2 terms.' }).waitFor();
    const row = page.getByRole('row', { name: /Furniture/ });
    await row.waitFor();
    expect(await row.textContent()).toContain('es, fr');
    await inspectPage(page, 'glossaries');
  });

  it('searches the entries, edits one, and downloads the glossary as CSV', async () => {
    await page.getByRole('link', { name: 'Furniture', exact: true }).click();
    await expect.poll(() => heading(page)).toBe('Furniture');
    await page.getByLabel('Search terms and translations').fill('canap');
    await expect.poll(() => page.getByText('Matching terms: 1').isVisible()).toBe(true);
    await inspectPage(page, 'glossary-entries');

    await page.getByRole('button', { name: 'Edit “sofa”' }).click();
    const dialog = page.getByRole('dialog');
    await dialog.getByLabel('Translation into es').fill('diván');
    await inspectPage(page, 'glossary-entry-edit');
    await dialog.getByRole('button', { name: 'Save' }).click();
    await expect.poll(() => page.getByRole('row', { name: /sofa/ }).textContent()).toContain('diván');

    const href = await page.getByRole('link', { name: 'Download CSV' }).getAttribute('href');
    const download = await page.request.get(href!);
    expect(download.headers()['content-disposition']).toContain('Furniture.csv');
    expect(await download.text()).toBe('term,es,fr\r\ncat,gato,chat\r\nsofa,diván,canapé\r\n');
  });

  it('registers a webhook and shows its secret once', async () => {
    await open(page, 'Webhook');
    await page.getByText('No webhook endpoint in this mode yet.').waitFor();
    await page.getByLabel('Endpoint URL').fill(webhookUrl);
    await page.getByRole('button', { name: 'Register', exact: true }).click();
    const secret = (await page.getByTestId('secret').textContent())!.trim();
    expect(secret).toMatch(/^whsec_/);
    await inspectPage(page, 'webhook-registered');
    await page.reload();
    await page.getByRole('button', { name: 'Change URL' }).waitFor();
    expect(await page.content()).not.toContain(secret);
  });

  it('follows a batch submitted with the key until it is done, its texts beside their translations', async () => {
    const submitted = await translationApi('POST', '/batches', key, { json: { source: 'en', target: 'es', texts: [SENTENCE, 'The dog is in the garden.'] } });
    expect(submitted.status).toBe(202);
    job = submitted.body.job;

    await open(page, 'Batches');
    const row = page.getByRole('row', { name: new RegExp(job) });
    await row.waitFor();
    await expect.poll(() => row.getByTestId('batch-status').textContent(), { timeout: stack.jobTimeoutMs }).toBe('done');
    expect(await row.textContent()).toContain('2 of 2 texts');
    await inspectPage(page, 'batches');

    await row.getByRole('link', { name: job }).click();
    await expect.poll(() => heading(page)).toBe('Batch job');
    await page.getByText(job, { exact: true }).waitFor();
    const first = page.getByRole('row', { name: /^1 / });
    expect(await first.getByRole('cell').nth(0).textContent()).toBe(SENTENCE);
    expect(await first.getByRole('cell').nth(1).textContent()).toMatch(/gato.*sofá/);
    await inspectPage(page, 'batch');

    const json = await page.request.get((await page.getByRole('link', { name: 'Download JSON' }).getAttribute('href'))!);
    expect((await json.json()).results).toHaveLength(2);
    const csv = await page.request.get((await page.getByRole('link', { name: 'Download CSV' }).getAttribute('href'))!);
    expect((await csv.text()).split('\r\n')[0]).toBe('index,source_text,translation,detected_source,words');
  });

  it("shows the batch's webhook delivery in the log and delivers it again", async () => {
    await pollUntil(
      () => receiver.received.filter((request) => JSON.parse(request.body).data?.job === job),
      (received) => received.length === 1,
      { timeoutMs: stack.jobTimeoutMs, what: `the webhook of ${job}` },
    );
    await open(page, 'Webhook');
    const status = page.getByTestId('delivery-status').first();
    await expect.poll(() => status.textContent(), { timeout: 15_000 }).toBe('204');
    await inspectPage(page, 'webhook-deliveries');

    await page.getByRole('button', { name: /^Redeliver event/ }).first().click();
    await page.getByRole('status').filter({ hasText: 'was queued for delivery again' }).waitFor();
    await pollUntil(
      () => receiver.received.filter((request) => JSON.parse(request.body).data?.job === job),
      (received) => received.length === 2,
      { timeoutMs: stack.jobTimeoutMs, what: `the redelivery of ${job}` },
    );
    await expect.poll(() => page.getByTestId('delivery-status').count(), { timeout: 15_000 }).toBe(2);
  });

  it('rotates the webhook secret only after confirmation', async () => {
    await page.getByRole('button', { name: 'Rotate secret' }).click();
    await page.getByRole('dialog').getByRole('button', { name: 'Cancel' }).click();
    expect(await page.getByTestId('secret').count()).toBe(0);
    await page.getByRole('button', { name: 'Rotate secret' }).click();
    await page.getByRole('dialog').getByRole('button', { name: 'Rotate secret' }).click();
    expect((await page.getByTestId('secret').textContent())!.trim()).toMatch(/^whsec_/);
  });

  it("charts this month's words once the key has translated", async () => {
    const translated = await translationApi('POST', '/translate', key, { json: { source: 'en', target: 'es', texts: [SENTENCE] } });
    expect(translated.status).toBe(200);
    await open(page, 'Overview');
    // The batch's 14 words and the translation's 8.
    await expect.poll(() => page.getByTestId('usage-words').textContent()).toBe('22');
    const today = new Date().toISOString().slice(0, 10);
    const chart = page.getByRole('figure', { name: 'Words per day this month' });
    expect(await chart.locator('rect.bar').count()).toBe(Number(today.slice(8)));
    expect(await page.getByRole('figure', { name: 'Words per month, last 12 months' }).locator('rect.bar').count()).toBe(12);
    expect(await page.getByRole('row', { name: /customer area/ }).textContent()).toContain('22');
    await inspectPage(page, 'overview');
  });

  it('shows the owner how far review has come on a review-tier job', async () => {
    const submitted = await translationApi('POST', '/batches', key, { json: { source: 'en', target: 'es', tier: 'review', texts: [SENTENCE] } });
    expect(submitted.status).toBe(202);
    await open(page, 'Batches');
    const row = page.getByRole('region', { name: 'Review-tier jobs' }).getByRole('row', { name: new RegExp(submitted.body.job) });
    // Cells after the job: status, waiting, being reviewed, approved, corrected. In the sandbox, review is simulated.
    await expect.poll(() => row.getByRole('cell').nth(0).textContent(), { timeout: stack.jobTimeoutMs }).toBe('done');
    expect(await row.getByRole('cell').nth(3).textContent()).toBe('1');
    await inspectPage(page, 'batches-review');
  });

  it('deletes a glossary only after confirmation', async () => {
    await open(page, 'Glossaries');
    const row = page.getByRole('row', { name: /Furniture/ });
    await row.getByRole('button', { name: 'Delete' }).click();
    await inspectPage(page, 'glossary-delete-confirm');
    await page.getByRole('dialog').getByRole('button', { name: 'Cancel' }).click();
    expect(await row.isVisible()).toBe(true);
    await row.getByRole('button', { name: 'Delete' }).click();
    await page.getByRole('dialog').getByRole('button', { name: 'Delete' }).click();
    await page.getByRole('status').filter({ hasText: 'The glossary “Furniture” was deleted.' }).waitFor();
    await page.getByText('No glossaries in this mode yet.').waitFor();
  });
});
