import type { NestFastifyApplication } from '@nestjs/platform-fastify';
import { AccountService } from '@platform/auth';
import { loadConfig } from '@platform/service-kit';
import { http, testAppEnv, testEnv, type HttpResult } from '@platform/testing';
import { randomInt, randomUUID } from 'node:crypto';
import pg from 'pg';
import { ConsoleConfig } from './config/console.config';
import { serveConsole } from './console.app';
import { InvitationsService } from './invitations/invitations.service';
import type { ConsoleRole } from './users/console-user.entity';

export const PASSWORD = 'correct horse battery staple';

/**
 * The console app under test. Requests come through a trusted proxy naming a client address
 * of their own (X-Forwarded-For), so that sign-in locks of one test never lock another.
 */
export async function startConsole(env: Record<string, string> = {}): Promise<{ app: NestFastifyApplication; url: string }> {
  const app = await serveConsole(loadConfig(ConsoleConfig, testAppEnv({ TRUSTED_PROXIES: '127.0.0.1,::1', CONSOLE_SIGNUP: 'true', ...env })));
  return { app, url: await app.getUrl() };
}

/** A client address of the documentation range 198.18.0.0/15, random enough for one test run. */
const randomAddress = () => `198.${18 + randomInt(2)}.${randomInt(256)}.${randomInt(1, 255)}`;

/** A browser: keeps the session cookie it is given and sends the CSRF token of its session. */
export class Browser {
  cookie?: string;
  csrfToken?: string;
  lastSetCookie?: string;

  constructor(
    readonly url: string,
    readonly address = randomAddress(),
  ) {}

  /** `body` sends a file as it is (with its type in `headers`), as the console's import does. */
  async call(
    method: string,
    path: string,
    json?: unknown,
    { csrf = true, headers = {}, body }: { csrf?: boolean; headers?: Record<string, string>; body?: string | Uint8Array } = {},
  ): Promise<HttpResult> {
    const sent: Record<string, string> = { 'x-forwarded-for': this.address, ...headers };
    if (this.cookie) sent.cookie = this.cookie;
    if (csrf && this.csrfToken) sent['x-csrf-token'] = this.csrfToken;
    const res = await http(this.url, method, `/console/api${path}`, { json, body, headers: sent });
    const setCookie = res.headers.get('set-cookie');
    if (setCookie) {
      this.lastSetCookie = setCookie;
      const pair = setCookie.split(';')[0];
      this.cookie = pair.endsWith('=') ? undefined : pair;
    }
    if (typeof res.body?.csrf_token === 'string') this.csrfToken = res.body.csrf_token;
    return res;
  }

  signIn(email: string, password = PASSWORD): Promise<HttpResult> {
    return this.call('POST', '/session', { email, password });
  }
}

export interface TestAccount {
  accountId: string;
  name: string;
  owner: Browser;
  ownerEmail: string;
  /** Invites a user of this role (a reviewer with languages) through the owner's session and signs them in by accepting. */
  join(role: ConsoleRole, invitation?: { languages?: string[] }): Promise<{ browser: Browser; email: string; userId: string }>;
}

export const newEmail = (label: string) => `${label}-${randomUUID()}@example.eu`;

/** An account as an operator makes it, its owner invited by the operator and signed in. */
export async function accountWithOwner(app: NestFastifyApplication, url: string, { activated = false } = {}): Promise<TestAccount> {
  const name = `console-${randomUUID()}`;
  const account = await app.get(AccountService).create(name, { activated });
  const ownerEmail = newEmail('owner');
  const { link } = await app.get(InvitationsService).invite(account.id, ownerEmail, 'owner');
  const owner = new Browser(url);
  const accepted = await owner.call('POST', '/invitations/accept', { token: tokenOf(link), password: PASSWORD });
  if (accepted.status !== 200) throw new Error(`accepting the owner's invitation: ${accepted.status} ${accepted.text}`);
  return {
    accountId: account.id,
    name,
    owner,
    ownerEmail,
    async join(role, invitation = role === 'reviewer' ? { languages: ['de'] } : {}) {
      const email = newEmail(role);
      const invited = await owner.call('POST', '/users/invitations', { email, role, ...invitation });
      if (invited.status !== 201) throw new Error(`inviting a ${role}: ${invited.status} ${invited.text}`);
      const browser = new Browser(url);
      const res = await browser.call('POST', '/invitations/accept', { token: tokenOf(invited.body.link), password: PASSWORD });
      if (res.status !== 200) throw new Error(`accepting a ${role}'s invitation: ${res.status} ${res.text}`);
      return { browser, email, userId: res.body.user.id };
    },
  };
}

export const tokenOf = (link: string) => new URL(link).hash.replace(/^#token=/, '');

/** Straight to the test database, for what a test must change that no interface does (the clock). */
export async function sql(text: string, values: unknown[] = []): Promise<void> {
  const client = new pg.Client({ connectionString: testEnv.databaseUrl });
  await client.connect();
  try {
    await client.query(text, values);
  } finally {
    await client.end();
  }
}
