import { NestFastifyApplication } from '@nestjs/platform-fastify';
import { loadConfig } from '@platform/service-kit';
import { freePort, pollUntil, testAppEnv, WEBHOOK_TEST_ENV } from '@platform/testing';
import { WebhookEndpointService } from '@platform/webhooks';
import { spawn, type ChildProcess } from 'node:child_process';
import { readFileSync } from 'node:fs';
import { fileURLToPath } from 'node:url';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { WebhookDispatcherConfig } from '../config/webhook-dispatcher.config';
import { serveWebhookDispatcher } from '../webhook-dispatcher.app';
import { deliveryHarness, live } from './delivery-harness.testing';

const EXAMPLE = fileURLToPath(new URL('../../../../docs/examples/webhook-receiver.mjs', import.meta.url));
const README = fileURLToPath(new URL('../../../../README.md', import.meta.url));

describe("the README's webhook receiver (docs/examples/webhook-receiver.mjs)", () => {
  let app: NestFastifyApplication;
  let example: ChildProcess;
  let printed = '';
  const { subscriber, publish, settled, stopReceivers } = deliveryHarness(() => app);

  beforeAll(async () => {
    app = await serveWebhookDispatcher(loadConfig(WebhookDispatcherConfig, testAppEnv(WEBHOOK_TEST_ENV)));
  });
  afterAll(async () => {
    example?.kill();
    await app.close();
    await stopReceivers();
  });

  it('is the one the README shows, line for line', () => {
    expect(readFileSync(README, 'utf8')).toContain(readFileSync(EXAMPLE, 'utf8'));
  });

  it("verifies a real delivery of the dispatcher with the endpoint's secret, and refuses a forged one", async () => {
    const { accountId, secret } = await subscriber();
    const port = await freePort();
    const url = `http://127.0.0.1:${port}/hooks`;
    example = spawn(process.execPath, [EXAMPLE], { env: { ...process.env, WEBHOOK_SECRET: secret, PORT: String(port) }, stdio: ['ignore', 'pipe', 'inherit'] });
    example.stdout!.on('data', (chunk) => (printed += chunk));
    // An unsigned request is the receiver's first: it must be refused.
    const unsigned = await pollUntil(
      () => fetch(url, { method: 'POST', body: '{}' }).then((res) => res.status, () => 0),
      (status) => status !== 0,
      { what: 'the example receiver listening' },
    );
    expect(unsigned).toBe(400);
    await app.get(WebhookEndpointService).register(live(accountId), url);

    const data = { job: 'job_readme', status: 'done', target: 'es', results: [{ index: 0, translation: 'El gato', detected_source: 'en', words: 2 }] };
    const eventId = await publish(accountId, data);
    const [attempt] = await settled(accountId, 1);
    expect(attempt).toMatchObject({ url, statusCode: 204, final: true });
    await pollUntil(() => printed, (text) => text.includes('\n'), { what: 'the example to print the event' });
    const [, id, type, json] = /^(\S+) (\S+) (.*)\n$/.exec(printed) ?? [];
    expect([id, type, JSON.parse(json)]).toEqual([eventId, 'batch.completed', data]);

    const forged = await fetch(url, {
      method: 'POST',
      headers: { 'webhook-id': eventId!, 'webhook-timestamp': String(Math.floor(Date.now() / 1000)), 'webhook-signature': 'v1,bm90IGEgc2lnbmF0dXJl' },
      body: JSON.stringify({ type: 'batch.completed', data: { ...data, job: 'job_forged' } }),
    });
    expect(forged.status).toBe(400);
    expect(printed.split('\n')).toHaveLength(2);
  });
});
