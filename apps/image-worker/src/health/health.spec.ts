import { NestFastifyApplication } from '@nestjs/platform-fastify';
import { loadConfig } from '@platform/service-kit';
import { http, testAppEnv } from '@platform/testing';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { ImageWorkerConfig } from '../config/image-worker.config';
import { serveImageWorker } from '../image-worker.app';

describe('image-worker operational endpoints', () => {
  let app: NestFastifyApplication;
  let url: string;

  beforeAll(async () => {
    app = await serveImageWorker(loadConfig(ImageWorkerConfig, testAppEnv()));
    url = await app.getUrl();
  });
  afterAll(() => app.close());

  it('reports Postgres, Redis and S3 up on /health', async () => {
    const res = await http(url, 'GET', '/health');
    expect(res.status).toBe(200);
    expect(res.body).toEqual({ status: 'ok', checks: { postgres: { status: 'up' }, redis: { status: 'up' }, s3: { status: 'up' } } });
  });

  it('answers 503 in the image envelope when Redis and S3 are down', async () => {
    const env = testAppEnv({ REDIS_URL: 'redis://127.0.0.1:1', S3_ENDPOINT: 'http://127.0.0.1:1' });
    const down = await serveImageWorker(loadConfig(ImageWorkerConfig, env));
    try {
      const res = await http(await down.getUrl(), 'GET', '/health');
      expect(res.status).toBe(503);
      expect(res.body).toMatchObject({
        error_message: 'Unavailable: redis, s3 down',
        error_fatal_status: false,
        checks: { postgres: { status: 'up' }, redis: { status: 'down' }, s3: { status: 'down' } },
      });
    } finally {
      await down.close();
    }
  });

  it('exports the job counts of its queue on /metrics', async () => {
    const res = await http(url, 'GET', '/metrics');
    expect(res.status).toBe(200);
    for (const state of ['waiting', 'active', 'delayed', 'failed']) {
      expect(res.text).toMatch(new RegExp(`^queue_jobs\\{queue="image-variants",state="${state}"\\} \\d+$`, 'm'));
    }
  });

  it('answers anything but its operational endpoints with 404 in the image envelope', async () => {
    const res = await http(url, 'GET', '/convert');
    expect(res.status).toBe(404);
    expect(res.body).toEqual({ error_message: 'Cannot GET /convert', error_fatal_status: false });
  });
});
