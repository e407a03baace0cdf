import { NestFastifyApplication } from '@nestjs/platform-fastify';
import { loadConfig } from '@platform/service-kit';
import { describeServiceHealth, http, testAppEnv } from '@platform/testing';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { TranslateApiConfig } from '../config/translate-api.config';
import { serveTranslateApi } from '../translate-api.app';

const start = (env: NodeJS.ProcessEnv) => serveTranslateApi(loadConfig(TranslateApiConfig, env));

describeServiceHealth({ service: 'translate-api', start, envelope: 'translation', dependencies: ['postgres', 'redis'] });

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

  // Well-formed but unknown: the credential's form is checked before the body, the key itself after parsing.
  const unknownKey = `svc_test_${'x'.repeat(40)}`;

  it('answers malformed JSON with 400 invalid_json before the key is looked up', async () => {
    const malformed = await http(url, 'POST', '/api/v1/keys', { body: '{"texts": [', headers: { 'content-type': 'application/json' }, token: unknownKey });
    expect(malformed.status).toBe(400);
    expect(malformed.body).toEqual({ error: 'invalid_json', message: 'The request body is not valid JSON' });
  });

  it('refuses a body over the byte cap with 413 before parsing it', async () => {
    const res = await http(url, 'POST', '/api/v1/keys', { body: `{"name":"${'a'.repeat(9 * 1024 * 1024)}"}`, headers: { 'content-type': 'application/json' }, token: unknownKey });
    expect(res.status).toBe(413);
    expect(res.body.error).toBe('payload_too_large');
  });
});
