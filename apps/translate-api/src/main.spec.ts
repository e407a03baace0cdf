import { buildApp, createTestKey, freePort, http, openRawConnection, parseRawResponse, pollUntil, startBuiltApp, testAppEnv } from '@platform/testing';
import { Agent, request } from 'node:http';
import { beforeAll, describe, expect, it } from 'vitest';

const SHUTDOWN_TIMEOUT_MS = 20_000;
/** Long enough that 20 of them are still being translated when SIGTERM arrives. */
const TEXTS = Array.from({ length: 10 }, (_, i) => `The cat number ${i} is sleeping on the red sofa of the house, and the dog is looking at it from the garden.`);

/** A POST on a pooled keep-alive connection; resolves with status and body, or with the socket error. */
function post(agent: Agent, url: string, path: string, token: string, json: unknown): Promise<{ status?: number; body?: any; error?: string }> {
  const body = JSON.stringify(json);
  return new Promise((resolve) => {
    const req = request(new URL(path, url), { method: 'POST', agent, headers: { authorization: `Bearer ${token}`, 'content-type': 'application/json', 'content-length': Buffer.byteLength(body) } }, (res) => {
      let text = '';
      res.on('data', (chunk) => (text += chunk));
      res.on('end', () => resolve({ status: res.statusCode, body: JSON.parse(text) }));
    });
    req.on('error', (error) => resolve({ error: (error as NodeJS.ErrnoException).code ?? error.message }));
    req.end(body);
  });
}

describe('translate-api as a process', () => {
  beforeAll(async () => {
    await buildApp('translate-api');
  });

  it('answers the requests in flight on keep-alive connections after SIGTERM and exits 0 once they are done', async () => {
    const proc = startBuiltApp('translate-api', testAppEnv({ LOG_LEVEL: 'info', SHUTDOWN_TIMEOUT_MS: String(SHUTDOWN_TIMEOUT_MS) }));
    const url = await proc.listening;
    const key = await createTestKey({ rateLimitPerMinute: 10_000, monthlyWordLimit: null });
    const agent = new Agent({ keepAlive: true, maxSockets: 20 });
    // Warm the pool so that the requests below travel on connections that outlive them.
    await Promise.all(Array.from({ length: 20 }, () => post(agent, url, '/api/v1/translate', key.plainKey, { source: 'en', target: 'es', texts: ['Hello.'] })));

    const inFlight = Array.from({ length: 20 }, () => post(agent, url, '/api/v1/translate', key.plainKey, { source: 'en', target: 'es', texts: TEXTS }));
    // A request whose head is half sent when the drain starts: it must get an answer, not a reset.
    const late = await openRawConnection(url);
    late.write('GET /api/v1/usage HTTP/1.1\r\nHost: localhost\r\n');
    await new Promise((resolve) => setTimeout(resolve, 300));
    const signalledAt = Date.now();
    proc.child.kill('SIGTERM');
    await new Promise((resolve) => setTimeout(resolve, 300));
    late.write(`Authorization: Bearer ${key.plainKey}\r\n\r\n`);

    const answers = await Promise.all(inFlight);
    expect(answers.map((answer) => answer.status)).toEqual(Array(20).fill(200));
    const lateResponse = parseRawResponse((await late.closed).received);
    expect(lateResponse.status).toBe(503);
    expect(lateResponse.body).toEqual({ error: 'service_unavailable', message: expect.any(String) });
    expect(Number(lateResponse.headers['retry-after'])).toBeGreaterThanOrEqual(1);
    expect(lateResponse.headers['connection']).toBe('close');

    expect(await proc.exit).toEqual({ code: 0, signal: null });
    // Well before the deadline, which would have ended it with exit code 1.
    expect(Date.now() - signalledAt).toBeLessThan(SHUTDOWN_TIMEOUT_MS);
    expect(proc.stderr()).not.toMatch(/exceeded/);
    agent.destroy();
  }, 60_000);

  it('with tracing on and no collector, answers as usual, logs the failed exports as JSON lines and exits 0 on SIGTERM', async () => {
    const collector = `http://127.0.0.1:${await freePort()}`;
    const tracing = { OTEL_EXPORTER_OTLP_ENDPOINT: collector, OTEL_BSP_SCHEDULE_DELAY: '100', OTEL_EXPORTER_OTLP_TIMEOUT: '500' };
    const proc = startBuiltApp('translate-api', testAppEnv({ LOG_LEVEL: 'info', ...tracing }));
    const url = await proc.listening;
    expect((await http(url, 'GET', '/api/v1/usage')).status).toBe(401);

    const lines = () => proc.stdout().trim().split('\n').map((line) => JSON.parse(line));
    const failed = await pollUntil(
      () => lines().find((line) => line.context === 'opentelemetry'),
      Boolean,
      { timeoutMs: 15_000, what: 'the failed export in the log' },
    );
    expect(failed).toMatchObject({ level: 'error', service: 'translate-api', msg: expect.any(String) });
    expect((await http(url, 'GET', '/api/v1/usage')).status).toBe(401);
    proc.child.kill('SIGTERM');
    expect(await proc.exit).toEqual({ code: 0, signal: null });
    // Every line of stdout parsed as JSON above; the SDK printed nothing of its own.
    expect(lines().length).toBeGreaterThan(2);
  }, 60_000);
});
