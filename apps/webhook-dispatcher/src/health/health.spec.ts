import { NestFastifyApplication } from '@nestjs/platform-fastify';
import { loadConfig } from '@platform/service-kit';
import { http, testAppEnv } from '@platform/testing';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { serveWebhookDispatcher } from '../webhook-dispatcher.app';
import { WebhookDispatcherConfig } from '../config/webhook-dispatcher.config';

describe('webhook-dispatcher operational endpoints', () => {
  let app: NestFastifyApplication;
  let url: string;

  beforeAll(async () => {
    app = await serveWebhookDispatcher(loadConfig(WebhookDispatcherConfig, testAppEnv()));
    url = await app.getUrl();
  });
  afterAll(() => app.close());

  it('reports Postgres and the queue connection to Redis up on /health', async () => {
    const res = await http(url, 'GET', '/health');
    expect(res.status).toBe(200);
    expect(res.body).toEqual({ status: 'ok', checks: { postgres: { status: 'up' }, redis: { status: 'up' } } });
  });

  it('answers 503 in the translation envelope when Redis is down', async () => {
    const down = await serveWebhookDispatcher(loadConfig(WebhookDispatcherConfig, testAppEnv({ REDIS_URL: 'redis://127.0.0.1:1' })));
    try {
      const res = await http(await down.getUrl(), 'GET', '/health');
      expect(res.status).toBe(503);
      expect(res.body).toMatchObject({
        error: 'service_unavailable',
        message: 'Unavailable: redis down',
        checks: { postgres: { status: 'up' }, redis: { status: 'down' } },
      });
    } finally {
      await down.close();
    }
  });

  it('exports the job counts of its queue on /metrics', async () => {
    const res = await http(url, 'GET', '/metrics');
    expect(res.status).toBe(200);
    for (const state of ['waiting', 'active', 'delayed', 'failed']) {
      expect(res.text).toMatch(new RegExp(`^queue_jobs\\{queue="webhook-deliveries",state="${state}"\\} \\d+$`, 'm'));
    }
  });

  it('answers anything but its operational endpoints with 404 in the envelope', async () => {
    const res = await http(url, 'GET', '/api/v1/webhook');
    expect(res.status).toBe(404);
    expect(res.body).toEqual({ error: 'not_found', message: 'Cannot GET /api/v1/webhook' });
  });
});
