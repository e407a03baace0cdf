import { createImageClient, multipartForm } from '@platform/api-client';
import { photoJpeg, runCommand } from '@platform/testing';
import { randomInt } from 'node:crypto';
import type { Browser, Page } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { runAdmin } from '../admin.command';
import { stack } from '../stack.config';
import { acceptInvitation, consolePage, heading, inspectPage, launchChromium, operatorAccount, takeSecret } from './console-browser';

/** One conversion against the image API with `token`; answers its status. */
async function convertWith(token: string): Promise<number> {
  // Another size on every run, so that the API converts rather than serving an earlier run's result.
  const photo = await photoJpeg(200 + randomInt(200), 150);
  const { response } = await createImageClient({ baseUrl: stack.imageUrl, accessToken: token }).POST('/convert', {
    body: { file: new File([new Uint8Array(photo)], 'photo.jpg'), format: 'webp' },
    bodySerializer: multipartForm,
    parseAs: 'arrayBuffer' as const,
  });
  return response.status;
}

/** `token:create` with its whole output: the subscription id is on the first line, the token on the last. */
async function createSubscription(): Promise<{ subscription: string; token: string }> {
  const run = await runCommand('/bin/sh', ['-c', `${stack.imageAdmin} token:create --plan free --limit 50`], { cwd: process.cwd(), env: process.env });
  expect(run.code, run.stderr).toBe(0);
  const subscription = /created free subscription (\S+) /.exec(run.stdout)?.[1];
  expect(subscription, run.stdout).toBeDefined();
  return { subscription: subscription!, token: run.lastLine.trim() };
}

describe('the console in a browser: image subscriptions and tokens', () => {
  let browser: Browser;
  let page: Page;
  let subscription: string;
  let secret: string;

  const card = () => page.getByTestId('image-subscription');
  const usage = () => card().getByTestId('image-usage').textContent();

  beforeAll(async () => {
    browser = await launchChromium();
    page = await consolePage(browser);
  });
  afterAll(() => browser?.close());

  it('says there is no subscription until an operator links one', async () => {
    await acceptInvitation(page, (await operatorAccount({ sandbox: true })).invitationLink);
    await page.getByRole('link', { name: 'Images' }).click();
    await expect.poll(() => heading(page)).toBe('Image conversion');
    await expect.poll(() => page.getByText('This account has no image subscriptions yet').isVisible()).toBe(true);
    await inspectPage(page, 'images-empty');
  });

  it('shows a subscription the operator links by CLI, with its conversions against the plan limit', async () => {
    const { id: accountId, name } = (await (await page.request.get('/console/api/me')).json()).account;
    const created = await createSubscription();
    subscription = created.subscription;
    expect(await runAdmin(stack.consoleAdmin, ['subscription:link', subscription, '--account', name])).toBe(accountId);

    await page.reload();
    await expect.poll(() => card().getAttribute('data-subscription-id')).toBe(subscription);
    expect(await card().getByRole('heading', { level: 2 }).textContent()).toBe('Free subscription');
    expect(await usage()).toBe('0 of 50 conversions (0%)');
    // Nothing converted yet: the chart says so in words instead of drawing an empty box.
    await expect.poll(() => card().getByRole('figure').getByText('No conversions in the last 12 months.').isVisible()).toBe(true);
    await expect.poll(() => card().getByRole('row').filter({ hasText: `img_…${created.token.slice(-4)}` }).count()).toBe(1);
    await inspectPage(page, 'images');
  });

  it('creates a token shown once, which converts an image, and the count moves', async () => {
    await card().getByRole('button', { name: 'Create token' }).click();
    secret = await takeSecret(page, 'Access token created', { inspect: 'image-token-created' });
    expect(secret).toMatch(/^img_[0-9A-Za-z]{40}$/);

    expect(await convertWith(secret)).toBe(200);
    // The page asks again on its own: the count and the chart move without a reload.
    await expect.poll(usage, { timeout: 30_000 }).toBe('1 of 50 conversions (2%)');
    // The chart's figures are in its table for screen readers; this month is the last bar.
    const chart = card().getByRole('figure');
    const lastMonth = chart.locator('tbody tr').last();
    await expect.poll(() => lastMonth.getByRole('cell').textContent(), { timeout: 30_000 }).toBe('1');
    // Scaled to use: one conversion is a full bar on a 0–1 axis, and the limit of 50, far above it, is told in words.
    expect(await chart.locator('.y-axis span').allTextContents()).toEqual(['0', '1']);
    expect(await chart.getByText('The monthly limit, 50, is far above these bars').isVisible()).toBe(true);
    await inspectPage(page, 'images-chart');
    // Shown once: gone with the page.
    await page.reload();
    await expect.poll(usage).toBe('1 of 50 conversions (2%)');
    expect(await page.content()).not.toContain(secret);
  });

  it('revokes a token only after confirmation, and the image API refuses it from then on', async () => {
    const row = card().getByRole('row').filter({ hasText: `img_…${secret.slice(-4)}` });
    await row.getByRole('button', { name: 'Revoke' }).click();
    await inspectPage(page, 'image-token-revoke-confirm');
    await page.getByRole('dialog').getByRole('button', { name: 'Cancel' }).click();
    await expect.poll(() => row.getByRole('cell', { name: 'active', exact: true }).isVisible()).toBe(true);
    expect(await convertWith(secret)).toBe(200);

    await row.getByRole('button', { name: 'Revoke' }).click();
    await page.getByRole('dialog').getByRole('button', { name: 'Revoke' }).click();
    await expect.poll(() => row.getByRole('cell', { name: /^revoked / }).isVisible()).toBe(true);
    expect(await convertWith(secret)).toBe(401);
    await page.reload();
    await expect.poll(usage).toBe('2 of 50 conversions (4%)');
  });
});
