import { NestFastifyApplication } from '@nestjs/platform-fastify';
import { TokenService } from '@platform/image-tokens';
import { loadConfig } from '@platform/service-kit';
import { describeApiReference, describeHttpLimits, describeServiceHealth, http, testAppEnv } from '@platform/testing';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import packageJson from '../../../../package.json';
import { ImageApiConfig } from '../config/image-api.config';
import { serveImageApi } from '../image-api.app';

const start = (env: NodeJS.ProcessEnv) => serveImageApi(loadConfig(ImageApiConfig, env));

describeServiceHealth({ service: 'image-api', start, envelope: 'image', dependencies: ['postgres', 'redis', 's3'] });

describeApiReference({
  service: 'image-api',
  start,
  securitySchemes: { 'access-token': /`img_` followed by 40 base62/ },
  guarded: { path: `/access-token/img_${'x'.repeat(40)}`, status: 401 },
});

describeHttpLimits({
  service: 'image-api',
  start,
  envelope: 'image',
  unauthenticated: { method: 'GET', path: `/access-token/img_${'x'.repeat(40)}` },
  // Without a header token the form is read, since the token may come as one of its fields.
  bodyRequest: { path: '/convert', headers: { 'content-type': 'multipart/form-data; boundary=limits' } },
  refusedUpload: { path: '/convert', headers: { 'content-type': 'multipart/form-data; boundary=limits', 'x-access-token': `img_${'Z'.repeat(40)}` } },
});

describe('image-api documents and malformed requests', () => {
  let app: NestFastifyApplication;
  let url: string;

  beforeAll(async () => {
    app = await start(testAppEnv());
    url = await app.getUrl();
  });
  afterAll(() => app.close());

  it('serves Prometheus metrics and the OpenAPI document', async () => {
    await http(url, 'GET', '/info');
    const metrics = await http(url, 'GET', '/metrics');
    expect(metrics.headers.get('content-type')).toContain('text/plain');
    expect(metrics.text).toMatch(/http_request_duration_seconds_count\{method="GET",route="\/info",status_class="2xx"\} \d+/);
    const openapi = await http(url, 'GET', '/openapi.json');
    expect(openapi.body.info).toMatchObject({ title: 'Image Conversion API', version: packageJson.version });
    expect(Object.keys(openapi.body.paths)).toEqual(expect.arrayContaining(['/health', '/info']));
  });

  it('answers a malformed JSON body in the image envelope', async () => {
    const res = await http(url, 'POST', '/convert', { body: '{"format": ', headers: { 'content-type': 'application/json' } });
    expect(res.status).toBe(400);
    expect(res.body).toEqual({ error_message: 'The request body is not valid JSON', error_fatal_status: false });
  });

  it('answers a URL with an invalid percent-encoding in the image envelope', async () => {
    const res = await http(url, 'GET', '/access-token/%ff%fe');
    expect(res.status).toBe(400);
    expect(res.body).toEqual({ error_message: 'The URL contains an invalid percent-encoded sequence', error_fatal_status: false });
  });

  it('answers a malformed multipart body in the image envelope', async () => {
    // With a valid token, as no file part is read without one.
    const { token } = await app.get(TokenService).create('free');
    const res = await http(url, 'POST', '/convert', {
      body: '--xyz\r\nContent-Disposition: form-data; name="file"; filename="a.png"\r\n\r\nnot closed',
      headers: { 'content-type': 'multipart/form-data; boundary=xyz', 'x-access-token': token },
    });
    expect(res.status).toBeGreaterThanOrEqual(400);
    expect(res.status).toBeLessThan(500);
    expect(res.body).toEqual({ error_message: expect.any(String), error_fatal_status: false });
  });
});
