import type { INestApplication } from '@nestjs/common';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { http } from './http-client';
import { requestHead } from './http-limits.suite';
import { openRawConnection, parseRawResponse } from './raw-connection';
import { selfSignedCertificate } from './self-signed-certificate';
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

/** What a service answers to `request` (the bytes of one or more requests) before it closes the connection. */
async function rawAnswer(url: string, request: string, ca?: Buffer) {
  const connection = await openRawConnection(url, { ca });
  connection.write(request);
  return parseRawResponse((await connection.closed).received);
}

/**
 * The operational contract every service shares: /health checks its real dependencies (503 in
 * the service's envelope when one is away), /metrics speaks Prometheus, unknown routes are 404s
 * in the envelope, every answer over HTTPS says Strict-Transport-Security.
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
      expect(res.text).toMatch(/^http_request_duration_seconds_count\{method="GET",route="\/health",status_class="2xx"\} \d+$/m);
      for (const state of suite.queue ? ['waiting', 'active', 'delayed', 'failed'] : []) {
        expect(res.text).toMatch(new RegExp(`^queue_jobs\\{queue="${suite.queue}",state="${state}"\\} \\d+$`, 'm'));
      }
    });

    it('answers an unknown route with 404 in its envelope', async () => {
      const res = await http(url, 'GET', '/no/such/route');
      expect(res.status).toBe(404);
      expectEnvelope(suite.envelope, res.body, 'Cannot GET /no/such/route');
    });

    it('says Strict-Transport-Security on every answer over its own TLS, a malformed request\'s included, and never over plain HTTP', async () => {
      const tls = await selfSignedCertificate();
      const secure = await suite.start(testAppEnv({ TLS_CERT_FILE: tls.certFile, TLS_KEY_FILE: tls.keyFile }));
      try {
        const secureUrl = (await secure.getUrl()).replace(/^http:/, 'https:');
        const close = { connection: 'close' };
        const answers = [
          await rawAnswer(secureUrl, requestHead('GET', '/health/live', close), tls.cert),
          await rawAnswer(secureUrl, requestHead('GET', '/no/such/route', close), tls.cert),
          await rawAnswer(secureUrl, 'NOT HTTP AT ALL\r\n\r\n', tls.cert),
        ];
        expect(answers.map((answer) => answer.status)).toEqual([200, 404, 400]);
        for (const answer of answers) expect(answer.headers['strict-transport-security']).toBe('max-age=31536000; includeSubDomains');
      } finally {
        await secure.close();
      }
      const plain = await http(url, 'GET', '/health/live', { headers: { 'x-forwarded-proto': 'https' } });
      // X-Forwarded-Proto counts only from TRUSTED_PROXIES, which are none here.
      expect([plain.status, plain.headers.get('strict-transport-security')]).toEqual([200, null]);
    });

    it('says Strict-Transport-Security, as configured, on answers a trusted proxy forwards from HTTPS in production', async () => {
      const proxied = await suite.start(
        testAppEnv({ NODE_ENV: 'production', TRUSTED_PROXIES: '127.0.0.1', HSTS_MAX_AGE_SECONDS: '63072000', HSTS_INCLUDE_SUBDOMAINS: 'true', HSTS_PRELOAD: 'true' }),
      );
      try {
        const proxiedUrl = await proxied.getUrl();
        const viaHttps = { 'x-forwarded-proto': 'https' };
        const answers = [await http(proxiedUrl, 'GET', '/health/live', { headers: viaHttps }), await http(proxiedUrl, 'GET', '/no/such/route', { headers: viaHttps })];
        expect(answers.map((answer) => [answer.status, answer.headers.get('strict-transport-security')])).toEqual([
          [200, 'max-age=63072000; includeSubDomains; preload'],
          [404, 'max-age=63072000; includeSubDomains; preload'],
        ]);
        const overHttp = [await http(proxiedUrl, 'GET', '/health/live'), await http(proxiedUrl, 'GET', '/no/such/route')];
        expect(overHttp.map((answer) => [answer.status, answer.headers.get('strict-transport-security')])).toEqual([
          [200, null],
          [403, null],
        ]);
      } finally {
        await proxied.close();
      }
    });
  });
}
