import { loadConfig } from '@platform/service-kit';
import { describeHttpLimits, openRawConnection, parseRawResponse, requestHead, testAppEnv } from '@platform/testing';
import type { NestFastifyApplication } from '@nestjs/platform-fastify';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { TranslateApiConfig } from '../config/translate-api.config';
import { serveTranslateApi } from '../translate-api.app';

const start = (env: NodeJS.ProcessEnv) => serveTranslateApi(loadConfig(TranslateApiConfig, env));
/** Well-formed, so it passes the check before the body, but no such key exists. */
const unknownKey = `svc_test_${'x'.repeat(40)}`;

describeHttpLimits({
  service: 'translate-api',
  start,
  envelope: 'translation',
  unauthenticated: { method: 'GET', path: '/api/v1/usage', headers: { authorization: `Bearer ${unknownKey}` } },
  bodyRequest: { path: '/api/v1/translate', headers: { authorization: `Bearer ${unknownKey}`, 'content-type': 'application/json' } },
});

describe('translate-api checks credentials before it reads a body', () => {
  let app: NestFastifyApplication;
  let url: string;

  beforeAll(async () => {
    app = await start(testAppEnv());
    url = await app.getUrl();
  });
  afterAll(() => app.close());

  /** Declares a large body, sends none of it, and returns the answer and whether the connection was closed. */
  async function withUnsentBody(path: string, headers: Record<string, string>) {
    const connection = await openRawConnection(url);
    connection.write(requestHead('POST', path, { 'content-type': 'application/json', 'content-length': '100000', ...headers }));
    const { received } = await connection.closed;
    return parseRawResponse(received);
  }

  it.each([
    ['no credential', {}, /^Missing API key/],
    ['a credential that is not an API key', { authorization: 'Bearer not-a-key' }, /^Invalid API key$/],
    ['a reviewer token on an API-key route', { authorization: `Bearer rvw_${'r'.repeat(40)}` }, /^Invalid API key$/],
  ])('answers a body with %s by 401 without waiting for it, and closes the connection', async (_, headers, message) => {
    const response = await withUnsentBody('/api/v1/translate', headers);
    expect(response.status).toBe(401);
    expect(response.body).toEqual({ error: 'invalid_key', message: expect.stringMatching(message) });
    expect(response.headers['www-authenticate']).toBe('Bearer');
    expect(response.headers['connection']).toBe('close');
  });

  it('asks for a reviewer token on review routes', async () => {
    const response = await withUnsentBody('/api/v1/review/tasks/task_x', { authorization: `Bearer ${unknownKey}` });
    expect(response.status).toBe(401);
    expect(response.body.message).toMatch(/reviewer token/);
  });
});
