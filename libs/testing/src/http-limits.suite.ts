import type { INestApplication } from '@nestjs/common';
import { Redis } from 'ioredis';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { setTimeout as delay } from 'node:timers/promises';
import { http } from './http-client';
import { pollUntil } from './poll-until';
import { openRawConnection, parseRawResponse } from './raw-connection';
import { leaseRedisDatabase, type RedisDatabaseLease } from './redis-database-lease';
import { testAppEnv } from './test-env';

export interface HttpLimitsSuite {
  service: string;
  start: (env: NodeJS.ProcessEnv) => Promise<INestApplication>;
  envelope: 'translation' | 'image';
  /** A request the app refuses with 401. */
  unauthenticated: { method: string; path: string; headers?: Record<string, string> };
  /** Head of a request whose body the app reads (credentials included where they are checked before the body). */
  bodyRequest: { path: string; headers: Record<string, string> };
  /** Head of an upload the app refuses with 401 before reading its body. */
  refusedUpload: { path: string; headers: Record<string, string> };
}

function expectEnvelope(envelope: HttpLimitsSuite['envelope'], body: unknown, code: string) {
  if (envelope === 'translation') expect(body).toEqual({ error: code, message: expect.any(String) });
  else expect(body).toEqual({ error_message: expect.any(String), error_fatal_status: code === 'invalid_key' });
}

export function requestHead(method: string, path: string, headers: Record<string, string>): string {
  return `${method} ${path} HTTP/1.1\r\nHost: localhost\r\n${Object.entries(headers)
    .map(([name, value]) => `${name}: ${value}\r\n`)
    .join('')}\r\n`;
}

/** A body sent in 16 KiB pieces a few milliseconds apart, as over a real network rather than in one loopback write. */
function uploadStream(bytes: number): ReadableStream<Uint8Array> {
  const piece = new Uint8Array(16 * 1024).fill(97);
  let sent = 0;
  return new ReadableStream({
    async pull(controller) {
      if (sent >= bytes) return controller.close();
      await new Promise((resolve) => setTimeout(resolve, 5));
      controller.enqueue(piece.subarray(0, Math.min(piece.length, bytes - sent)));
      sent += piece.length;
    },
  });
}

/** The limits every public API shares against slow, greedy or guessing clients, and its security headers. */
export function describeHttpLimits(suite: HttpLimitsSuite): void {
  describe(`${suite.service} against slow, greedy and guessing clients`, () => {
    let redis: RedisDatabaseLease;
    const started: INestApplication[] = [];
    const start = async (env: Record<string, string> = {}) => {
      const app = await suite.start(testAppEnv({ REDIS_URL: redis.url, ...env }));
      started.push(app);
      return app.getUrl();
    };

    beforeAll(async () => {
      redis = await leaseRedisDatabase();
      // Counts of an earlier run within the minute would throttle this one from its first request.
      const client = new Redis(redis.url);
      try {
        const stale = await client.keys('auth-failures:*');
        if (stale.length) await client.del(...stale);
      } finally {
        client.disconnect();
      }
    });
    afterAll(async () => {
      await Promise.all(started.map((app) => app.close()));
      await redis.release();
    });

    it('cuts off a body that trickles in with 408 in the envelope and closes the connection', async () => {
      // The dependency deadlines must end inside a request's own.
      const url = await start({ REQUEST_TIMEOUT_MS: '1000', HEADERS_TIMEOUT_MS: '1000', DATABASE_STATEMENT_TIMEOUT_MS: '500', DATABASE_QUERY_TIMEOUT_MS: '800', REDIS_COMMAND_TIMEOUT_MS: '500' });
      const connection = await openRawConnection(url);
      connection.write(requestHead('POST', suite.bodyRequest.path, { ...suite.bodyRequest.headers, 'content-length': '100000' }));
      const trickle = setInterval(() => connection.socket.writable && connection.write('a'), 200);
      try {
        const { received } = await connection.closed;
        const response = parseRawResponse(received);
        expect(response.status).toBe(408);
        expect(response.headers['connection']).toBe('close');
        expectEnvelope(suite.envelope, response.body, 'request_timeout');
      } finally {
        clearInterval(trickle);
      }
    });

    it('lets clients still sending an upload read the 401 given before its body', async () => {
      const url = await start({ AUTH_FAILURES_PER_MINUTE: '0' });
      const { path, headers } = suite.refusedUpload;
      const answers = await Promise.all(
        Array.from({ length: 20 }, async () => {
          const res = await fetch(`${url}${path}`, { method: 'POST', headers, body: uploadStream(200 * 1024), duplex: 'half' } as RequestInit);
          return { status: res.status, connection: res.headers.get('connection'), body: await res.json() };
        }),
      );
      for (const answer of answers) {
        expect([answer.status, answer.connection]).toEqual([401, 'close']);
        expectEnvelope(suite.envelope, answer.body, 'invalid_key');
      }
    });

    it('cuts the connection under an early-answered body beyond UNREAD_BODY_DISCARD_BYTES', async () => {
      const url = await start({ AUTH_FAILURES_PER_MINUTE: '0', UNREAD_BODY_DISCARD_BYTES: '65536', UNREAD_BODY_DISCARD_MS: '60000' });
      const connection = await openRawConnection(url);
      const { path, headers } = suite.refusedUpload;
      connection.write(requestHead('POST', path, { ...headers, 'content-length': String(200 * 1024 * 1024) }));
      const chunk = 'a'.repeat(64 * 1024);
      const flood = setInterval(() => connection.socket.writable && connection.write(chunk), 5);
      try {
        const { received } = await connection.closed;
        expect(parseRawResponse(received).status).toBe(401);
      } finally {
        clearInterval(flood);
      }
    });

    it('answers a connection beyond MAX_CONNECTIONS_PER_IP, while the others are busy, with 429 in the envelope and closes it; accepts again when one ends', async () => {
      const url = await start({ MAX_CONNECTIONS_PER_IP: '3' });
      // Connections that have not sent a whole request yet are busy: a slow client's are.
      const held = await Promise.all([1, 2, 3].map(() => openRawConnection(url)));
      const refused = await openRawConnection(url);
      refused.write(requestHead('GET', '/health/live', {}));
      const answer = parseRawResponse((await refused.closed).received);
      expect([answer.status, answer.headers['retry-after'], answer.headers['connection']]).toEqual([429, '1', 'close']);
      expectEnvelope(suite.envelope, answer.body, 'rate_limited');

      held[0].socket.destroy();
      await held[0].closed;
      const next = await openRawConnection(url);
      next.write(requestHead('GET', '/health/live', { connection: 'close' }));
      expect(parseRawResponse((await next.closed).received).status).toBe(200);
      held.slice(1).forEach((connection) => connection.socket.destroy());
    });

    it('gives each of 100 concurrent clients of one address an HTTP status, never a reset, with MAX_CONNECTIONS_PER_IP at 8', async () => {
      // The admitted requests fail authentication; counting them would throttle later tests.
      const url = await start({ MAX_CONNECTIONS_PER_IP: '8', AUTH_FAILURES_PER_MINUTE: '0' });
      const clients = await Promise.all(Array.from({ length: 100 }, () => openRawConnection(url)));
      // Each request waits for its body, so the first eight accepted stay busy while the others arrive.
      clients.forEach((client) => client.write(requestHead('POST', suite.bodyRequest.path, { ...suite.bodyRequest.headers, 'content-length': '2', connection: 'close' })));
      const early = () => clients.filter((client) => parseRawResponse(client.received()).status === 429).length;
      await pollUntil(early, (count) => count === 92, { what: 'the 429 answers of the clients beyond the cap' });
      // The refused ones are closed already: their answer did not wait for the body.
      clients.filter((client) => client.socket.writable).forEach((client) => client.write('{}'));
      const answers = await Promise.all(clients.map(async (client) => ({ error: (await client.closed).error, ...parseRawResponse(client.received()) })));
      expect(answers.filter((answer) => answer.error !== undefined || !(answer.status >= 200 && answer.status < 600))).toEqual([]);
      const refused = answers.filter((answer) => answer.status === 429);
      expect(refused).toHaveLength(92);
      for (const answer of refused) {
        expect([answer.headers['retry-after'], answer.headers['connection']]).toEqual(['1', 'close']);
        expectEnvelope(suite.envelope, answer.body, 'rate_limited');
      }
    });

    it('closes the longest idle keep-alive connection of an address at MAX_CONNECTIONS_PER_IP for a new one, which is served', async () => {
      const url = await start({ MAX_CONNECTIONS_PER_IP: '4' });
      // One client's pool: four connections, each answered once and kept alive.
      const pool = await Promise.all([1, 2, 3, 4].map(() => openRawConnection(url)));
      for (const connection of pool) {
        connection.write(requestHead('GET', '/health/live', {}));
        await pollUntil(() => parseRawResponse(connection.received()).status, (status) => status === 200, { what: 'the first answer' });
      }
      const newcomer = await openRawConnection(url);
      newcomer.write(requestHead('GET', '/health/live', { connection: 'close' }));
      expect(parseRawResponse((await newcomer.closed).received).status).toBe(200);
      // Exactly one of the pool's connections made room, and nothing was cut mid-request.
      const closed = await Promise.all(pool.map((connection) => Promise.race([connection.closed.then(() => true), delay(500).then(() => false)])));
      expect(closed.filter(Boolean)).toHaveLength(1);
      pool.forEach((connection) => connection.socket.destroy());
    });

    it('closes a connection beyond MAX_CONNECTIONS_PER_IP that sends no request long before the request timeouts', async () => {
      // Node's own timeouts would answer 408 after a minute, beyond the test's time.
      const url = await start({ MAX_CONNECTIONS_PER_IP: '1', HEADERS_TIMEOUT_MS: '60000', REQUEST_TIMEOUT_MS: '60000' });
      const held = await openRawConnection(url);
      const silent = await openRawConnection(url);
      expect(await silent.closed).toEqual({ received: '' });
      held.socket.destroy();
    });

    it('leaves connections from a trusted proxy uncapped: they carry many clients', async () => {
      const url = await start({ MAX_CONNECTIONS_PER_IP: '1', TRUSTED_PROXIES: '127.0.0.1' });
      const held = await Promise.all([1, 2, 3].map(() => openRawConnection(url)));
      held[2].write(requestHead('GET', '/health/live', { connection: 'close' }));
      expect(parseRawResponse((await held[2].closed).received).status).toBe(200);
      held.forEach((connection) => connection.socket.destroy());
    });

    it('answers 429 rate_limited with Retry-After once an address has failed authentication AUTH_FAILURES_PER_MINUTE times', async () => {
      const url = await start({ AUTH_FAILURES_PER_MINUTE: '5' });
      const { method, path, headers } = suite.unauthenticated;
      for (let i = 0; i < 5; i++) expect((await http(url, method, path, { headers })).status).toBe(401);

      const throttled = await http(url, method, path, { headers });
      expect(throttled.status).toBe(429);
      expectEnvelope(suite.envelope, throttled.body, 'rate_limited');
      expect(Number(throttled.headers.get('retry-after'))).toBeGreaterThanOrEqual(1);
      expect(Number(throttled.headers.get('retry-after'))).toBeLessThanOrEqual(60);
      // Probes of the platform are never throttled.
      expect((await http(url, 'GET', '/health/live')).status).toBe(200);
    });

    it('holds failed authentications sent together to AUTH_FAILURES_PER_MINUTE, as those sent one after another', async () => {
      const url = await start({ AUTH_FAILURES_PER_MINUTE: '5', TRUSTED_PROXIES: '127.0.0.1' });
      const { method, path, headers } = suite.unauthenticated;
      const answers = await Promise.all(Array.from({ length: 40 }, () => http(url, method, path, { headers: { ...headers, 'x-forwarded-for': '203.0.113.60' } })));
      const statuses = answers.map((res) => res.status);
      expect(statuses.filter((status) => status === 401)).toHaveLength(5);
      expect(statuses.filter((status) => status === 429)).toHaveLength(35);
    });

    it('counts failed authentications per forwarded client address behind a trusted proxy', async () => {
      const url = await start({ AUTH_FAILURES_PER_MINUTE: '2', TRUSTED_PROXIES: '127.0.0.1' });
      const { method, path, headers } = suite.unauthenticated;
      const from = (client: string) => http(url, method, path, { headers: { ...headers, 'x-forwarded-for': client } });
      expect([(await from('203.0.113.1')).status, (await from('203.0.113.1')).status, (await from('203.0.113.1')).status]).toEqual([401, 401, 429]);
      expect((await from('203.0.113.2')).status).toBe(401);
    });

    it('sends nosniff on every response and no-store on API responses', async () => {
      const url = await start();
      const { method, path, headers } = suite.unauthenticated;
      for (const res of [await http(url, 'GET', '/health/live'), await http(url, 'GET', '/no/such/route'), await http(url, method, path, { headers })]) {
        expect(res.headers.get('x-content-type-options')).toBe('nosniff');
        expect(res.headers.get('cache-control')).toBe('no-store');
      }
    });
  });
}
