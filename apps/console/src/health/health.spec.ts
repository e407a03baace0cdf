import type { NestFastifyApplication } from '@nestjs/platform-fastify';
import { ConfigError, loadConfig } from '@platform/service-kit';
import { describeServiceHealth, http } from '@platform/testing';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { ConsoleConfig } from '../config/console.config';
import { startConsole } from '../console-browser.testing';
import { serveConsole } from '../console.app';

describeServiceHealth({
  service: 'console',
  start: (env) => serveConsole(loadConfig(ConsoleConfig, env)),
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
      '/console/api/images/subscriptions',
      '/console/api/images/subscriptions/{id}/tokens',
      '/console/api/images/subscriptions/{id}/tokens/{tokenId}',
      '/console/api/images/subscriptions/{id}/usage',
      '/console/api/invitations/accept',
      '/console/api/keys',
      '/console/api/keys/{id}',
      '/console/api/keys/{id}/regenerate',
      '/console/api/me',
      '/console/api/session',
      '/console/api/sessions',
      '/console/api/signup',
      '/console/api/users',
      '/console/api/users/invitations',
      '/console/api/users/{id}',
    ]);
    expect(body.components.securitySchemes.console_session).toMatchObject({ type: 'apiKey', in: 'cookie', name: 'console_session' });
    expect(body.paths['/console/api/keys'].post.security).toEqual([{ console_session: [] }]);
    expect(body.paths['/console/api/keys'].post.responses['403'].description).toMatch(/csrf_token_invalid/);
    expect(body.paths['/console/api/session'].post.security).toBeUndefined();
  });

  it('stops at start on an SMTP setting, which is not supported yet', () => {
    expect(() => loadConfig(ConsoleConfig, { SMTP_URL: 'smtp://mail.example.eu' })).toThrow(ConfigError);
    expect(() => loadConfig(ConsoleConfig, { SMTP_URL: 'smtp://mail.example.eu' })).toThrow(/SMTP_URL is not supported yet/);
    expect(loadConfig(ConsoleConfig, {}).PORT).toBe(3500);
  });
});
