import { NestFastifyApplication } from '@nestjs/platform-fastify';
import { loadConfig } from '@platform/service-kit';
import { http, testAppEnv } from '@platform/testing';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { TranslateApiConfig } from '../config/translate-api.config';
import { serveTranslateApi } from '../translate-api.app';

describe('translate-api operational endpoints', () => {
  let app: NestFastifyApplication;
  let url: string;

  beforeAll(async () => {
    app = await serveTranslateApi(loadConfig(TranslateApiConfig, testAppEnv()));
    url = await app.getUrl();
  });
  afterAll(() => app.close());

  it('reports Postgres and Redis up on /health', async () => {
    const res = await http(url, 'GET', '/health');
    expect(res.status).toBe(200);
    expect(res.body.checks).toEqual({ postgres: { status: 'up' }, redis: { status: 'up' } });
  });

  it('answers 503 in the envelope when a dependency is down', async () => {
    const down = await serveTranslateApi(loadConfig(TranslateApiConfig, testAppEnv({ REDIS_URL: 'redis://127.0.0.1:1' })));
    try {
      const res = await http(await down.getUrl(), 'GET', '/health');
      expect(res.status).toBe(503);
      expect(res.body).toMatchObject({ error: 'service_unavailable', checks: { redis: { status: 'down' }, postgres: { status: 'up' } } });
    } finally {
      await down.close();
    }
  });

  it('serves Prometheus metrics and the OpenAPI document', async () => {
    await http(url, 'GET', '/health');
    const metrics = await http(url, 'GET', '/metrics');
    expect(metrics.headers.get('content-type')).toContain('text/plain');
    expect(metrics.text).toMatch(/http_request_duration_seconds_count\{method="GET",route="\/health",status="200"\} \d+/);
    const openapi = await http(url, 'GET', '/openapi.json');
    expect(openapi.body.paths['/health']).toBeDefined();
  });

  it('answers unknown routes and malformed bodies in the envelope', async () => {
    expect((await http(url, 'GET', '/api/v1/nope')).body).toEqual({ error: 'not_found', message: 'Cannot GET /api/v1/nope' });
    const malformed = await http(url, 'POST', '/api/v1/nope', { body: '{"texts": [', headers: { 'content-type': 'application/json' } });
    expect(malformed.status).toBe(400);
    expect(malformed.body.error).toBe('invalid_json');
  });
});
