import { NestFastifyApplication } from '@nestjs/platform-fastify';
import { loadConfig } from '@platform/service-kit';
import { http, testAppEnv } from '@platform/testing';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { ImageApiConfig } from '../config/image-api.config';
import { serveImageApi } from '../image-api.app';

describe('image-api operational endpoints and error envelope', () => {
  let app: NestFastifyApplication;
  let url: string;

  beforeAll(async () => {
    app = await serveImageApi(loadConfig(ImageApiConfig, testAppEnv()));
    url = await app.getUrl();
  });
  afterAll(() => app.close());

  it('reports Postgres, Redis and S3 up on /health without a token', async () => {
    const res = await http(url, 'GET', '/health');
    expect(res.status).toBe(200);
    expect(res.body).toEqual({ status: 'ok', checks: { postgres: { status: 'up' }, redis: { status: 'up' }, s3: { status: 'up' } } });
  });

  it('answers 503 in the image envelope when Redis and S3 are down', async () => {
    const env = testAppEnv({ REDIS_URL: 'redis://127.0.0.1:1', S3_ENDPOINT: 'http://127.0.0.1:1' });
    const down = await serveImageApi(loadConfig(ImageApiConfig, env));
    try {
      const res = await http(await down.getUrl(), 'GET', '/health');
      expect(res.status).toBe(503);
      expect(res.body).toMatchObject({
        error_message: expect.stringMatching(/^Unavailable: (redis, s3|s3, redis) down$/),
        error_fatal_status: false,
        checks: { postgres: { status: 'up' }, redis: { status: 'down' }, s3: { status: 'down' } },
      });
    } finally {
      await down.close();
    }
  });

  it('serves Prometheus metrics and the OpenAPI document', async () => {
    await http(url, 'GET', '/info');
    const metrics = await http(url, 'GET', '/metrics');
    expect(metrics.headers.get('content-type')).toContain('text/plain');
    expect(metrics.text).toMatch(/http_request_duration_seconds_count\{method="GET",route="\/info",status="200"\} \d+/);
    const openapi = await http(url, 'GET', '/openapi.json');
    expect(openapi.body.info.title).toBe('Image Conversion API');
    expect(Object.keys(openapi.body.paths)).toEqual(expect.arrayContaining(['/health', '/info']));
  });

  it('answers unknown routes with 404 in the image envelope', async () => {
    const res = await http(url, 'GET', '/nope');
    expect(res.status).toBe(404);
    expect(res.body).toEqual({ error_message: 'Cannot GET /nope', error_fatal_status: false });
  });

  it('answers a malformed JSON body in the image envelope', async () => {
    const res = await http(url, 'POST', '/convert', { body: '{"format": ', headers: { 'content-type': 'application/json' } });
    expect(res.status).toBe(400);
    expect(res.body).toEqual({ error_message: 'The request body is not valid JSON', error_fatal_status: false });
  });

  it('answers a malformed multipart body in the image envelope', async () => {
    const res = await http(url, 'POST', '/convert', {
      body: '--xyz\r\nContent-Disposition: form-data; name="file"; filename="a.png"\r\n\r\nnot closed',
      headers: { 'content-type': 'multipart/form-data; boundary=xyz' },
    });
    expect(res.status).toBeGreaterThanOrEqual(400);
    expect(res.status).toBeLessThan(500);
    expect(res.body).toEqual({ error_message: expect.any(String), error_fatal_status: false });
  });
});
