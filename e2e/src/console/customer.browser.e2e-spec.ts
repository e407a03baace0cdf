import { pollUntil, startWebhookReceiver, type WebhookReceiver } from '@platform/testing';
import type { Browser, Page } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { stack } from '../stack.config';
import { SENTENCE, translationApi } from '../translation.client';
import { acceptInvitation, accessibleDescription, consolePage, heading, inspectPage, launchChromium, operatorAccount, takeSecret } from './console-browser';

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
    key = await takeSecret(page, 'Key “customer area” created');
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
    // Beside the file input, read with it, with what to do about it.
    expect(await accessibleDescription(page, '#glossary-file')).toContain('Line 3: 2 fields where the header row has 3');
    expect(await accessibleDescription(page, '#glossary-file')).toContain('Correct the file where this says');
    expect(await page.getByLabel('CSV file').getAttribute('aria-invalid')).toBe('true');
    expect(await page.locator('main').textContent()).not.toContain('Something went wrong');
    await inspectPage(page, 'glossary-upload-error', { moderate: true });

    await page.getByLabel('CSV file').setInputFiles(csvFile('furniture.csv', FIXED_CSV));
    await page.getByRole('button', { name: 'Upload', exact: true }).click();
    await page.getByRole('status').filter({ hasText: 'The glossary “Furniture” was created with 2 terms.' }).waitFor();
    const row = page.getByRole('row', { name: /Furniture/ });
    await row.waitFor();
    expect(await row.textContent()).toContain('es, fr');
    // The id the API needs, with a Copy button and a Delete button named after the row.
    const { glossaries } = await (await page.request.get('/console/api/glossaries?mode=sandbox')).json();
    expect(await row.getByRole('cell', { name: glossaries[0].id }).count()).toBe(1);
    await row.getByRole('button', { name: 'Copy the ID of “Furniture”' }).click();
    await row.getByRole('button', { name: 'Copied the ID of “Furniture”' }).waitFor();
    expect(await page.evaluate(() => (globalThis as unknown as { navigator: { clipboard: { readText(): Promise<string> } } }).navigator.clipboard.readText())).toBe(glossaries[0].id);
    expect(await row.getByRole('button', { name: 'Delete glossary Furniture' }).count()).toBe(1);
    await inspectPage(page, 'glossaries', { moderate: true });
  });

  it('searches the entries, edits one, and downloads the glossary as CSV', async () => {
    await page.getByRole('link', { name: 'Furniture', exact: true }).click();
    await expect.poll(() => heading(page)).toBe('Furniture');
    await page.getByRole('button', { name: 'Copy the ID of “Furniture”' }).waitFor();
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
    // A refused URL is explained under the field.
    await page.getByLabel('Endpoint URL').fill('http://169.254.169.254/hooks');
    await page.getByRole('button', { name: 'Register', exact: true }).click();
    await expect.poll(() => page.getByLabel('Endpoint URL').getAttribute('aria-invalid')).toBe('true');
    expect(await accessibleDescription(page, 'input[type="url"]')).toContain('The URL points to 169.254.169.254');
    await inspectPage(page, 'webhook-url-refused', { moderate: true });
    await page.getByLabel('Endpoint URL').fill(webhookUrl);
    await page.getByRole('button', { name: 'Register', exact: true }).click();
    const secret = await takeSecret(page, 'Signing secret of the endpoint', { inspect: 'webhook-secret' });
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
    // The redelivery's attempt goes on from the first one's number.
    expect(await page.getByTestId('delivery-number').allTextContents()).toEqual(['2', '1']);
  });

  it("shows what an attempt sent and what came back, sends a test event and filters the log by event type", async () => {
    const [eventId] = await page.getByRole('row').getByRole('cell').locator('code').first().allTextContents();
    await page.getByRole('button', { name: `Details of attempt 1 of event ${eventId}` }).click();
    const details = page.getByRole('region', { name: `Attempt 1 of event ${eventId}` });
    await expect.poll(() => details.getByTestId('delivery-request-headers').textContent()).toMatch(new RegExp(`^webhook-id: ${eventId}$`, 'm'));
    expect(await details.getByTestId('delivery-request-headers').textContent()).toMatch(/^webhook-signature: v1,\S+$/m);
    expect(JSON.parse((await details.getByTestId('delivery-request-body').textContent())!)).toMatchObject({ type: 'batch.completed', data: { job } });
    expect(await details.textContent()).toContain('Status 204');
    await inspectPage(page, 'webhook-attempt-details');
    await details.getByRole('button', { name: 'Close details' }).click();

    await page.getByLabel('Event type').selectOption('webhook.test');
    await page.getByText('No deliveries of webhook.test events yet.').waitFor();
    await page.getByRole('button', { name: 'Send test event' }).click();
    await page.getByRole('status').filter({ hasText: /^Test event msg_\S+ was queued/ }).waitFor();
    const received = await pollUntil(
      () => receiver.received.filter((request) => JSON.parse(request.body).type === 'webhook.test'),
      (found) => found.length === 1,
      { timeoutMs: stack.jobTimeoutMs, what: 'the test event' },
    );
    await expect.poll(() => page.getByTestId('delivery-status').allTextContents(), { timeout: 15_000 }).toEqual(['204']);
    expect(await page.getByRole('row').getByRole('cell').locator('code').allTextContents()).toEqual([received[0].headers['webhook-id']]);
    await page.getByLabel('Event type').selectOption('');
    await expect.poll(() => page.getByTestId('delivery-status').count(), { timeout: 15_000 }).toBe(3);
  });

  it('rotates the webhook secret only after confirmation', async () => {
    await page.getByRole('button', { name: 'Rotate secret' }).click();
    await page.getByRole('dialog').getByRole('button', { name: 'Cancel' }).click();
    expect(await page.getByTestId('secret').count()).toBe(0);
    await page.getByRole('button', { name: 'Rotate secret' }).click();
    await page.getByRole('dialog').getByRole('button', { name: 'Rotate secret' }).click();
    expect(await takeSecret(page, 'New signing secret of the endpoint', { inspect: 'webhook-secret-rotated' })).toMatch(/^whsec_/);
  });

  it("charts this month's words once the key has translated, without a reload", async () => {
    await open(page, 'Overview');
    // The batch's 14 words.
    await expect.poll(() => page.getByTestId('usage-words').textContent()).toBe('14');
    const translated = await translationApi('POST', '/translate', key, { json: { source: 'en', target: 'es', texts: [SENTENCE] } });
    expect(translated.status).toBe(200);
    // And the translation's 8: the page asks again on its own.
    await expect.poll(() => page.getByTestId('usage-words').textContent(), { timeout: 30_000 }).toBe('22');
    const today = new Date().toISOString().slice(0, 10);
    const chart = page.getByRole('figure', { name: 'Words per day this month' });
    expect(await chart.locator('rect.bar').count()).toBe(Number(today.slice(8)));
    // A value axis from 0 to a round top above the 22 words of the day.
    const ticks = (await chart.locator('.y-axis span').allTextContents()).map(Number);
    expect(ticks[0]).toBe(0);
    expect(ticks.at(-1)).toBeGreaterThanOrEqual(22);
    const months = page.getByRole('figure', { name: 'Words per month, last 12 months' });
    expect(await months.locator('rect.bar').count()).toBe(12);
    // The sandbox's 50,000 words would flatten the bars: the limit is told instead of drawn.
    expect(await months.getByText('The monthly limit, 50,000, is far above these bars').isVisible()).toBe(true);
    expect(await page.getByRole('row', { name: /customer area/ }).textContent()).toContain('22');
    // Sandbox words are free: the free quota instead of costs.
    expect(await page.getByTestId('usage-quota').textContent()).toMatch(/^[\d,.\s]+ words a month$/);
    expect(await page.getByRole('columnheader', { name: 'Cost' }).count()).toBe(0);
    expect(await page.getByRole('term').filter({ hasText: 'Cost' }).count()).toBe(0);
    await inspectPage(page, 'overview', { moderate: true });
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
