import type { INestApplication } from '@nestjs/common';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { http } from './http-client';
import { testAppEnv } from './test-env';

type Dependency = 'postgres' | 'redis' | 's3';

/** Where each dependency is pointed to make it unreachable. */
const DEAD: Record<Exclude<Dependency, 'postgres'>, Record<string, string>> = {
  redis: { REDIS_URL: 'redis://127.0.0.1:1' },
  s3: { S3_ENDPOINT: 'http://127.0.0.1:1' },
};

export interface ServiceHealthSuite {
  service: string;
  start: (env: NodeJS.ProcessEnv) => Promise<INestApplication>;
  envelope: 'translation' | 'image';
  dependencies: Dependency[];
  /** The queue whose job counts the service exports, for workers. */
  queue?: string;
}

function expectEnvelope(envelope: ServiceHealthSuite['envelope'], body: unknown, message: string | RegExp) {
  if (envelope === 'translation') expect(body).toMatchObject({ error: expect.any(String), message });
  else expect(body).toMatchObject({ error_message: message, error_fatal_status: false });
}

/**
 * The operational contract every service shares: /health checks its real dependencies (503 in
 * the service's envelope when one is away), /metrics speaks Prometheus, unknown routes are 404s
 * in the envelope.
 */
export function describeServiceHealth(suite: ServiceHealthSuite): void {
  describe(`${suite.service} operational endpoints`, () => {
    let app: INestApplication;
    let url: string;

    beforeAll(async () => {
      app = await suite.start(testAppEnv());
      url = await app.getUrl();
    });
    afterAll(() => app.close());

    it(`reports ${suite.dependencies.join(', ')} up on /health without credentials`, async () => {
      const res = await http(url, 'GET', '/health');
      expect(res.status).toBe(200);
      expect(res.body).toEqual({ status: 'ok', checks: Object.fromEntries(suite.dependencies.map((d) => [d, { status: 'up' }])) });
    });

    const killable = suite.dependencies.filter((d): d is keyof typeof DEAD => d !== 'postgres');
    it(`answers 503 in its envelope when ${killable.join(' and ')} cannot be reached, and stays live`, async () => {
      const down = await suite.start(testAppEnv(Object.assign({}, ...killable.map((d) => DEAD[d]))));
      try {
        const res = await http(await down.getUrl(), 'GET', '/health');
        expect(res.status).toBe(503);
        expectEnvelope(suite.envelope, res.body, new RegExp(`^Unavailable: .*${killable.join('.*')}.* down$`));
        expect(res.body.checks).toEqual(
          Object.fromEntries(suite.dependencies.map((d) => [d, killable.includes(d as never) ? { status: 'down', error: expect.any(String) } : { status: 'up' }])),
        );
        // Liveness ignores dependencies: restarting the process would not bring them back.
        const live = await http(await down.getUrl(), 'GET', '/health/live');
        expect([live.status, live.body]).toEqual([200, { status: 'ok' }]);
      } finally {
        await down.close();
      }
    });

    it('serves Prometheus metrics', async () => {
      await http(url, 'GET', '/health');
      const res = await http(url, 'GET', '/metrics');
      expect(res.headers.get('content-type')).toContain('text/plain');
      expect(res.text).toMatch(/^http_request_duration_seconds_count\{method="GET",route="\/health",status="200"\} \d+$/m);
      for (const state of suite.queue ? ['waiting', 'active', 'delayed', 'failed'] : []) {
        expect(res.text).toMatch(new RegExp(`^queue_jobs\\{queue="${suite.queue}",state="${state}"\\} \\d+$`, 'm'));
      }
    });

    it('answers an unknown route with 404 in its envelope', async () => {
      const res = await http(url, 'GET', '/no/such/route');
      expect(res.status).toBe(404);
      expectEnvelope(suite.envelope, res.body, 'Cannot GET /no/such/route');
    });
  });
}
