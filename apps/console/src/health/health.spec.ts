import type { NestFastifyApplication } from '@nestjs/platform-fastify';
import { ConfigError, loadConfig } from '@platform/service-kit';
import { describeServiceHealth, http } from '@platform/testing';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { ConsoleConfig } from '../config/console.config';
import { startConsole } from '../console-browser.testing';
import { serveConsole } from '../console.app';

describeServiceHealth({
  service: 'console',
  // Production needs the console's public https address (CONSOLE_PUBLIC_URL); the suite starts it in production too.
  start: (env) => serveConsole(loadConfig(ConsoleConfig, { CONSOLE_PUBLIC_URL: 'https://console.example.eu', ...env })),
  envelope: 'translation',
  dependencies: ['postgres', 'redis'],
});

describe('console OpenAPI document and configuration', () => {
  let app: NestFastifyApplication;
  let url: string;

  beforeAll(async () => {
    ({ app, url } = await startConsole());
  });
  afterAll(() => app?.close());

  it('documents every session API route with the session cookie and the CSRF refusal', async () => {
    const { status, body } = await http(url, 'GET', '/openapi.json');
    expect(status).toBe(200);
    expect(Object.keys(body.paths).filter((path) => path.startsWith('/console/')).sort()).toEqual([
      '/console/api/activation',
      '/console/api/batches',
      '/console/api/batches/{job}',
      '/console/api/batches/{job}/results',
      '/console/api/glossaries',
      '/console/api/glossaries/{id}',
      '/console/api/glossaries/{id}/csv',
      '/console/api/glossaries/{id}/entries/{index}',
      '/console/api/images/subscriptions',
      '/console/api/images/subscriptions/{id}/tokens',
      '/console/api/images/subscriptions/{id}/tokens/{tokenId}',
      '/console/api/images/subscriptions/{id}/usage',
      '/console/api/invitations/accept',
      '/console/api/keys',
      '/console/api/keys/{id}',
      '/console/api/keys/{id}/regenerate',
      '/console/api/me',
      '/console/api/memories',
      '/console/api/memories/{id}',
      '/console/api/memories/{id}/entries/{entryId}',
      '/console/api/memories/{id}/export',
      '/console/api/memories/{id}/import',
      '/console/api/password-resets',
      '/console/api/password-resets/check',
      '/console/api/password-resets/complete',
      '/console/api/review',
      '/console/api/review-pool',
      '/console/api/review-progress',
      '/console/api/review/tasks',
      '/console/api/review/tasks/next',
      '/console/api/review/tasks/{id}',
      '/console/api/review/tasks/{id}/approve',
      '/console/api/review/tasks/{id}/edit',
      '/console/api/review/tasks/{id}/lease',
      '/console/api/review/tasks/{id}/suggestions',
      '/console/api/second-factor',
      '/console/api/second-factor/disable',
      '/console/api/second-factor/enrolment',
      '/console/api/second-factor/enrolment/confirm',
      '/console/api/second-factor/recovery-codes',
      '/console/api/session',
      '/console/api/session/second-factor',
      '/console/api/sessions',
      '/console/api/signup',
      '/console/api/signup/verification-mail',
      '/console/api/signup/verify',
      '/console/api/style-profiles',
      '/console/api/style-profiles/{id}',
      '/console/api/usage',
      '/console/api/users',
      '/console/api/users/invitations',
      '/console/api/users/invitations/{id}',
      '/console/api/users/invitations/{id}/resend',
      '/console/api/users/{id}',
      '/console/api/webhook',
      '/console/api/webhook/deliveries',
      '/console/api/webhook/deliveries/{id}',
      '/console/api/webhook/deliveries/{id}/redeliver',
      '/console/api/webhook/rotate-secret',
      '/console/api/webhook/test',
    ]);
    // Every route of the customer area names its mode and documents what the session guard answers.
    const customer = /^\/console\/api\/(usage|glossaries|memories|style-profiles|batches|webhook|review-progress)/;
    for (const [path, operations] of Object.entries<Record<string, { parameters: { name: string; in: string; required: boolean }[]; responses: object }>>(body.paths)) {
      if (!customer.test(path)) continue;
      for (const [method, operation] of Object.entries(operations)) {
        expect(operation.parameters, `${method} ${path}`).toContainEqual(expect.objectContaining({ name: 'mode', in: 'query', required: true }));
        expect(Object.keys(operation.responses), `${method} ${path}`).toEqual(expect.arrayContaining(['401', '403']));
      }
    }
    expect(body.components.securitySchemes.console_session).toMatchObject({ type: 'apiKey', in: 'cookie', name: 'console_session' });
    expect(body.paths['/console/api/keys'].post.security).toEqual([{ console_session: [] }]);
    expect(body.paths['/console/api/keys'].post.responses['403'].description).toMatch(/csrf_token_invalid/);
    expect(body.paths['/console/api/review/tasks/{id}/edit'].post.responses['403'].description).toMatch(/csrf_token_invalid.*reviewer_revoked/);
    expect(body.paths['/console/api/session'].post.security).toBeUndefined();
    expect(body.paths['/console/api/session/second-factor'].post.security).toBeUndefined();
    expect(body.paths['/console/api/second-factor/disable'].post.security).toEqual([{ console_session: [] }]);
    expect(body.paths['/console/api/password-resets'].post.security).toBeUndefined();
    expect(Object.keys(body.paths['/console/api/password-resets'].post.responses)).toEqual(expect.arrayContaining(['202', '422', '429']));
  });

  it('takes a mail server as smtp:// or smtps:// with a From address, and stops at start on a malformed one', () => {
    const from = { CONSOLE_MAIL_FROM: 'Example Console <console@example.eu>' };
    for (const SMTP_URL of ['smtp://mail.example.eu', 'smtp://user:p%40ss@mail.example.eu:587', 'smtps://mail.example.eu:465/', 'smtp://[::1]:2525']) {
      expect(loadConfig(ConsoleConfig, { SMTP_URL, ...from }).SMTP_URL).toBe(SMTP_URL);
    }
    for (const SMTP_URL of ['mail.example.eu:587', 'http://mail.example.eu', 'smtp://', 'smtp://mail.example.eu/path', 'smtp://mail.example.eu?tls=no', 'smtp://user:secret@mail.example.eu:99999']) {
      const load = () => loadConfig(ConsoleConfig, { SMTP_URL, ...from });
      expect(load, SMTP_URL).toThrow(ConfigError);
      expect(load, SMTP_URL).toThrow('SMTP_URL must be smtp://[user:password@]host[:port] or smtps://[user:password@]host[:port], without a path or query');
      expect(load, SMTP_URL).not.toThrow(/secret/);
    }
    expect(() => loadConfig(ConsoleConfig, { SMTP_URL: 'smtp://mail.example.eu' })).toThrow(/CONSOLE_MAIL_FROM must be an address, optionally with a name .*; SMTP_URL needs it/);
    expect(() => loadConfig(ConsoleConfig, { SMTP_URL: 'smtp://mail.example.eu', CONSOLE_MAIL_FROM: 'Console <nope>' })).toThrow(/CONSOLE_MAIL_FROM="Console <nope>"/);
    expect(loadConfig(ConsoleConfig, { SMTP_URL: 'smtp://mail.example.eu', CONSOLE_MAIL_FROM: 'console@example.eu' }).CONSOLE_MAIL_FROM).toBe('console@example.eu');
    expect(loadConfig(ConsoleConfig, {}).SMTP_URL).toBeUndefined();
  });
});
