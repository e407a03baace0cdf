import axe from 'axe-core';
import { randomUUID } from 'node:crypto';
import { mkdirSync } from 'node:fs';
import path from 'node:path';
import { chromium, type Browser, type Page } from 'playwright-core';
import { expect } from 'vitest';
import { runAdmin } from '../admin.command';
import { stack } from '../stack.config';

export const PASSWORD = 'correct horse battery staple';
const DESKTOP = { width: 1280, height: 800 };
const PHONE = { width: 375, height: 812 };

export const launchChromium = (): Promise<Browser> =>
  chromium.launch({
    executablePath: stack.chromiumPath,
    headless: true,
    // As root in a container there is no user namespace for Chromium's sandbox; nothing here leaves localhost.
    args: ['--no-sandbox', '--disable-gpu', '--disable-dev-shm-usage', '--disable-background-networking', '--no-first-run'],
  });

/** A fresh browser profile (no cookies) on the console (the stack's unless another is named), at desktop size. */
export async function consolePage(browser: Browser, consoleUrl = stack.consoleUrl): Promise<Page> {
  const context = await browser.newContext({ baseURL: consoleUrl, viewport: DESKTOP });
  await context.grantPermissions(['clipboard-read', 'clipboard-write'], { origin: consoleUrl });
  return context.newPage();
}

/** The console's path of a link the console printed (its public URL may name another host). */
export const consolePath = (link: string) => {
  const url = new URL(link);
  return `${url.pathname}${url.search}${url.hash}`;
};

const SERIOUS = ['serious', 'critical'];

async function violations(page: Page, impacts: string[]) {
  // Evaluated through the DevTools protocol, so the page's CSP (no inline script) stays in force.
  await page.evaluate(axe.source);
  const results = await page.evaluate(() => {
    // Runs in the page; the suite is compiled without the DOM's types.
    const page = globalThis as unknown as { axe: typeof axe; document: axe.ElementContext };
    return page.axe.run(page.document, { resultTypes: ['violations'] });
  });
  return results.violations
    .filter((violation) => impacts.includes(violation.impact ?? ''))
    .map((violation) => `${violation.id}: ${violation.help} (${violation.nodes.map((node) => node.target.join(' ')).join(', ')})`);
}

/**
 * What every page must pass, at desktop and at phone width: no serious or critical axe-core
 * violation (nor a moderate one, for pages that ask), nothing wider than a 375 px screen, and a
 * screenshot of each for the artifacts.
 */
export async function inspectPage(page: Page, name: string, { moderate = false }: { moderate?: boolean } = {}): Promise<void> {
  const dir = path.resolve(stack.screenshotDir);
  mkdirSync(dir, { recursive: true });
  const impacts = moderate ? [...SERIOUS, 'moderate'] : SERIOUS;
  await page.waitForLoadState('networkidle');
  expect(await violations(page, impacts), `axe on ${name} (desktop)`).toEqual([]);
  await page.screenshot({ path: path.join(dir, `${name}.png`), fullPage: true });

  await page.setViewportSize(PHONE);
  expect(await violations(page, impacts), `axe on ${name} (375 px)`).toEqual([]);
  const overflow = await page.evaluate(() => {
    const page = globalThis as unknown as { innerWidth: number; document: { documentElement: { scrollWidth: number } } };
    return page.document.documentElement.scrollWidth - page.innerWidth;
  });
  expect(overflow, `${name} is wider than a 375 px screen`).toBeLessThanOrEqual(0);
  await page.screenshot({ path: path.join(dir, `${name}-375.png`), fullPage: true });
  await page.setViewportSize(DESKTOP);
}

/** The header's switch between the account's two modes: on for the sandbox. */
export const modeSwitch = (page: Page) => page.getByRole('banner').getByRole('switch', { name: 'Sandbox' });

/** Turns the header's switch to a mode (if it is not there yet) and waits until it is. */
export async function switchMode(page: Page, mode: 'sandbox' | 'live'): Promise<void> {
  const toggle = modeSwitch(page);
  const checked = String(mode === 'sandbox');
  if ((await toggle.getAttribute('aria-checked')) !== checked) await toggle.click();
  await expect.poll(() => toggle.getAttribute('aria-checked')).toBe(checked);
}

export interface OperatorAccount {
  name: string;
  ownerEmail: string;
  invitationLink: string;
}

/** An account as an operator opens it: created by the CLI, its owner invited by the CLI. */
export async function operatorAccount({ sandbox }: { sandbox: boolean }): Promise<OperatorAccount> {
  const name = `browser-${randomUUID().slice(0, 8)}`;
  const ownerEmail = `owner-${randomUUID().slice(0, 8)}@example.eu`;
  await runAdmin(stack.translateAdmin, ['account:create', name, ...(sandbox ? ['--sandbox'] : [])]);
  const invitationLink = await runAdmin(stack.consoleAdmin, ['user:invite', '--account', name, '--email', ownerEmail, '--role', 'owner']);
  return { name, ownerEmail, invitationLink };
}

/** Opens an invitation link, sets the password and lands signed in on the user's home page. */
export async function acceptInvitation(page: Page, link: string, { inspect }: { inspect?: string } = {}): Promise<void> {
  await page.goto(consolePath(link));
  await expect.poll(() => page.getByRole('heading', { level: 1 }).textContent()).toBe('Join your team');
  if (inspect) await inspectPage(page, inspect);
  await page.getByLabel('New password').fill(PASSWORD);
  await page.getByRole('button', { name: 'Set password and sign in' }).click();
  await page.getByRole('navigation', { name: 'Console sections' }).waitFor();
}

/** The text of the first h1, once the page shows one (pages load their data after navigation). */
export const heading = async (page: Page) => (await page.getByRole('heading', { level: 1 }).first().textContent())?.trim();

/** What has the keyboard focus: its text, id, tag and accessible label, read in the page. */
export const focused = (page: Page) =>
  page.evaluate(() => {
    const active = (globalThis as unknown as { document: { activeElement: { textContent: string | null; id: string; tagName: string; getAttribute(name: string): string | null } } }).document
      .activeElement;
    return { textContent: active.textContent, id: active.id, tag: active.tagName.toLowerCase(), label: active.getAttribute('aria-label') };
  });

/** The text an element's aria-describedby points at, as a screen reader reads it with the element. */
export const accessibleDescription = (page: Page, selector: string) =>
  page.evaluate((selector) => {
    const doc = (globalThis as unknown as { document: { querySelector(s: string): { getAttribute(n: string): string | null } | null; getElementById(id: string): { textContent: string | null } | null } }).document;
    const ids = doc.querySelector(selector)?.getAttribute('aria-describedby')?.split(' ') ?? [];
    return ids.map((id) => doc.getElementById(id)?.textContent ?? '').join(' ');
  }, selector);

/**
 * The secret of the dialog that shows one once: it opens with the focus on Copy and describes
 * itself as shown once; checked like a page when `inspect` names it (moderate findings too), then
 * closed with Done.
 */
export async function takeSecret(page: Page, title: string | RegExp, { inspect }: { inspect?: string } = {}): Promise<string> {
  const dialog = page.getByRole('dialog', { name: title });
  await dialog.waitFor();
  await expect.poll(async () => (await focused(page)).textContent).toBe('Copy');
  expect(await accessibleDescription(page, 'dialog[open]')).toContain('This is the only time it is shown');
  const secret = (await dialog.getByTestId('secret').textContent())!.trim();
  if (inspect) await inspectPage(page, inspect, { moderate: true });
  await dialog.getByRole('button', { name: 'Done' }).click();
  await expect.poll(() => dialog.count()).toBe(0);
  return secret;
}

/**
 * Waits until the reviewer's workspace shows a task of `job`, asking again (Check again) while it
 * has none: an account's reviewers get its tasks only, so the first to come is the job's once it
 * is machine-translated.
 */
export async function awaitReviewTask(reviewer: Page, job: string): Promise<void> {
  const shown = reviewer.getByRole('heading', { level: 2, name: /^Text \d+ of job_/ });
  const none = reviewer.getByRole('button', { name: 'Check again' });
  const deadline = Date.now() + stack.jobTimeoutMs;
  for (;;) {
    await expect.poll(async () => (await shown.isVisible()) || (await none.isVisible()), { timeout: stack.jobTimeoutMs }).toBe(true);
    if (await shown.isVisible()) break;
    if (Date.now() > deadline) throw new Error(`the review task of ${job} never came`);
    await none.click();
    await reviewer.waitForTimeout(250);
  }
  expect(await shown.textContent()).toContain(job);
}
