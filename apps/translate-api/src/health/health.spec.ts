import { NestFastifyApplication } from '@nestjs/platform-fastify';
import { loadConfig } from '@platform/service-kit';
import { describeApiReference, describeHttpLimits, describeServiceHealth, http, openRawConnection, parseRawResponse, requestHead, testAppEnv } from '@platform/testing';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { TranslateApiConfig } from '../config/translate-api.config';
import { serveTranslateApi } from '../translate-api.app';

const start = (env: NodeJS.ProcessEnv) => serveTranslateApi(loadConfig(TranslateApiConfig, env));

/** Well-formed, so it passes the check before the body, but no such key exists. */
const unknownKey = `svc_test_${'x'.repeat(40)}`;

describeServiceHealth({ service: 'translate-api', start, envelope: 'translation', dependencies: ['postgres', 'redis'] });

describeApiReference({
  service: 'translate-api',
  start,
  securitySchemes: { bearer: /`svc_test_`.*`svc_live_`.*not a JWT/, reviewer: /`rvw_` followed by 40 base62/ },
  guarded: { path: '/api/v1/usage', status: 401 },
});

describeHttpLimits({
  service: 'translate-api',
  start,
  envelope: 'translation',
  unauthenticated: { method: 'GET', path: '/api/v1/usage', headers: { authorization: `Bearer ${unknownKey}` } },
  bodyRequest: { path: '/api/v1/translate', headers: { authorization: `Bearer ${unknownKey}`, 'content-type': 'application/json' } },
  refusedUpload: { path: '/api/v1/translate', headers: { 'content-type': 'application/json' } },
});

describe('translate-api documents and malformed requests', () => {
  let app: NestFastifyApplication;
  let url: string;

  beforeAll(async () => {
    app = await start(testAppEnv());
    url = await app.getUrl();
  });
  afterAll(() => app.close());

  it('serves the generated OpenAPI document without credentials', async () => {
    const openapi = await http(url, 'GET', '/openapi.json');
    expect(openapi.body.info.title).toBe('Translation API');
    expect(Object.keys(openapi.body.paths)).toEqual(expect.arrayContaining(['/health', '/api/v1/keys', '/api/v1/usage']));
  });

  it('declares API keys and reviewer tokens as two bearer schemes of opaque prefixed secrets, not JWTs', async () => {
    const { components, paths } = (await http(url, 'GET', '/openapi.json')).body;
    expect(components.securitySchemes).toEqual({
      bearer: { type: 'http', scheme: 'bearer', description: expect.stringContaining('svc_live_') },
      reviewer: { type: 'http', scheme: 'bearer', description: expect.stringContaining('rvw_') },
    });
    const securityOf = (path: string, method: string) => paths[path][method].security;
    expect(securityOf('/api/v1/translate', 'post')).toEqual([{ bearer: [] }]);
    expect(securityOf('/api/v1/review/tasks/next', 'get')).toEqual([{ reviewer: [] }]);
  });

  // The credential's form is checked before the body, the key itself after parsing.
  it('answers malformed JSON with 400 invalid_json before the key is looked up', async () => {
    const malformed = await http(url, 'POST', '/api/v1/keys', { body: '{"texts": [', headers: { 'content-type': 'application/json' }, token: unknownKey });
    expect(malformed.status).toBe(400);
    expect(malformed.body).toEqual({ error: 'invalid_json', message: 'The request body is not valid JSON' });
  });

  it('answers a URL with an invalid percent-encoding in the envelope', async () => {
    const res = await http(url, 'GET', '/api/v1/glossaries/%ff%fe');
    expect(res.status).toBe(400);
    expect(res.body).toEqual({ error: 'bad_request', message: 'The URL contains an invalid percent-encoded sequence' });
  });

  it('refuses a body over the byte cap with 413 before parsing it', async () => {
    const res = await http(url, 'POST', '/api/v1/keys', { body: `{"name":"${'a'.repeat(9 * 1024 * 1024)}"}`, headers: { 'content-type': 'application/json' }, token: unknownKey });
    expect(res.status).toBe(413);
    expect(res.body.error).toBe('payload_too_large');
  });

  /** Declares a large body, sends none of it, and returns what the server answered before closing the connection. */
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
