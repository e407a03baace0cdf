import { startWebhookReceiver, type ReceiverAnswer, type WebhookReceiver } from '@platform/testing';
import { createServer, type AddressInfo } from 'node:net';
import { afterEach, describe, expect, it } from 'vitest';
import { postWebhook } from './webhook-http-client';

const TIMEOUTS = { timeoutMs: 2000, connectTimeoutMs: 2000 };
const receivers: WebhookReceiver[] = [];
afterEach(async () => {
  await Promise.all(receivers.splice(0).map((r) => r.stop()));
});

async function receiver(...args: Parameters<typeof startWebhookReceiver>) {
  const started = await startWebhookReceiver(...args);
  receivers.push(started);
  return started;
}

describe('postWebhook', () => {
  it('connects to the vetted address whatever the host name would resolve to now', async () => {
    const { url, received } = await receiver(() => ({ status: 202 }));
    const port = new URL(url).port;
    // A name no resolver knows: the request can only arrive if no DNS lookup happens.
    const target = { url: new URL(`http://hooks.rebinding.invalid:${port}/in?x=1`), address: '127.0.0.1', family: 4 as const };

    expect(await postWebhook(target, { 'webhook-id': 'msg_1' }, '{"a":1}', TIMEOUTS)).toEqual({ status: 202, retryAfter: undefined, excerpt: '' });
    expect(received).toHaveLength(1);
    expect(received[0]).toMatchObject({ path: '/in?x=1', body: '{"a":1}' });
    expect(received[0].headers).toMatchObject({
      host: `hooks.rebinding.invalid:${port}`,
      'webhook-id': 'msg_1',
      'content-type': 'application/json',
      'content-length': '7',
      'user-agent': expect.stringMatching(/webhooks/),
    });
  });

  it('keeps the connection for the next request to the same receiver', async () => {
    const hook = await receiver();
    const target = { url: new URL(`${hook.url}/hook`), address: '127.0.0.1', family: 4 as const };
    for (let i = 0; i < 3; i++) expect(await postWebhook(target, {}, '{}', TIMEOUTS)).toMatchObject({ status: 204 });
    expect(hook.received).toHaveLength(3);
    expect(hook.connections).toMatchObject({ open: 1, peak: 1 });
  });

  it('never hands a kept connection to a request whose host name now has another vetted address', async () => {
    const first = await receiver();
    const port = Number(new URL(first.url).port);
    const second = await receiver(undefined, { host: '127.0.0.2', port });
    const url = new URL(`http://hooks.example:${port}/hook`);
    await postWebhook({ url, address: '127.0.0.1', family: 4 }, {}, '{}', TIMEOUTS);
    await postWebhook({ url, address: '127.0.0.2', family: 4 }, {}, '{}', TIMEOUTS);
    expect(first.received).toHaveLength(1);
    expect(second.received).toHaveLength(1);
  });

  it('reports Retry-After and does not follow redirects', async () => {
    const answers: ReceiverAnswer[] = [
      { status: 429, headers: { 'retry-after': '3' } },
      { status: 302, headers: { location: '/elsewhere' } },
    ];
    const { url, received } = await receiver((_, index) => answers[index]);
    const target = { url: new URL(`${url}/hook`), address: '127.0.0.1', family: 4 as const };
    expect(await postWebhook(target, {}, '{}', TIMEOUTS)).toEqual({ status: 429, retryAfter: '3', excerpt: '' });
    expect(await postWebhook(target, {}, '{}', TIMEOUTS)).toMatchObject({ status: 302 });
    expect(received.map((r) => r.path)).toEqual(['/hook', '/hook']);
  });

  it("keeps the first 1,024 bytes of the answer as text, NUL and broken UTF-8 made U+FFFD, and waits no longer for a body held back", async () => {
    const long = Buffer.from(`{"ok":true,"note":"${'é'.repeat(600)}"}`);
    const odd = Buffer.from([0x6f, 0x6b, 0x00, 0xff, 0x21]);
    const answers: ReceiverAnswer[] = [{ status: 200, body: long }, { status: 500, body: odd }, { status: 200, body: { held: Buffer.from('partial') } }];
    const { url } = await receiver((_, index) => answers[index]);
    const target = { url: new URL(url), address: '127.0.0.1', family: 4 as const };

    const first = await postWebhook(target, {}, '{}', TIMEOUTS);
    expect(Buffer.byteLength(first.excerpt)).toBeLessThanOrEqual(1024 + 2);
    expect(long.toString('utf8').startsWith(first.excerpt.replace(/\uFFFD$/, ''))).toBe(true);
    expect(first.excerpt.length).toBeGreaterThan(500);
    expect((await postWebhook(target, {}, '{}', TIMEOUTS)).excerpt).toBe('ok\uFFFD\uFFFD!');

    const started = Date.now();
    const held = await postWebhook(target, {}, '{}', { timeoutMs: 10_000, connectTimeoutMs: 1000 });
    expect(held).toMatchObject({ status: 200, excerpt: 'partial' });
    expect(Date.now() - started).toBeLessThan(5_000);
  });

  it('gives up on a receiver that does not answer in time', async () => {
    const { url } = await receiver(() => 'hang');
    const target = { url: new URL(url), address: '127.0.0.1', family: 4 as const };
    await expect(postWebhook(target, {}, '{}', { timeoutMs: 300, connectTimeoutMs: 300 })).rejects.toThrow('The receiver did not answer within 300 ms');
  });

  it('gives up on a connection that is not established in time, before the receive timeout', async () => {
    // Accepts TCP connections but never answers a TLS handshake, like an address that drops packets.
    const silent = createServer(() => undefined);
    await new Promise<void>((resolve) => silent.listen(0, '127.0.0.1', resolve));
    try {
      const target = { url: new URL(`https://hooks.example:${(silent.address() as AddressInfo).port}/`), address: '127.0.0.1', family: 4 as const };
      await expect(postWebhook(target, {}, '{}', { timeoutMs: 30_000, connectTimeoutMs: 300 })).rejects.toThrow('No connection to the receiver within 300 ms');
    } finally {
      silent.close();
    }
  });

  it('fails on a refused connection', async () => {
    const { url, stop } = await receiver();
    await stop();
    const target = { url: new URL(url), address: '127.0.0.1', family: 4 as const };
    await expect(postWebhook(target, {}, '{}', TIMEOUTS)).rejects.toThrow(/ECONNREFUSED/);
  });
});
