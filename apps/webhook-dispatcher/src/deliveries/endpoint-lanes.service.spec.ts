import { loadConfig, MetricsRegistry } from '@platform/service-kit';
import { testEnv } from '@platform/testing';
import Bull from 'bull';
import { randomUUID } from 'node:crypto';
import { setTimeout as sleep } from 'node:timers/promises';
import { afterAll, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import { WebhookDispatcherConfig } from '../config/webhook-dispatcher.config';
import { EndpointLanes, OPEN_CIRCUITS, type Admission } from './endpoint-lanes.service';

const COOLDOWN_MS = 300;

// Lanes of random names on the shared test Redis, and a queue of their own for the waiters.
describe('EndpointLanes (on real Redis)', () => {
  let queue: Bull.Queue;
  let lanes: EndpointLanes;
  let metrics: MetricsRegistry;

  const config = loadConfig(WebhookDispatcherConfig, {
    WORKER_CONCURRENCY: '4',
    WEBHOOK_ENDPOINT_CONCURRENCY: '2',
    WEBHOOK_CIRCUIT_FAILURES: '3',
    WEBHOOK_CIRCUIT_COOLDOWN_MS: String(COOLDOWN_MS),
  });

  beforeAll(() => {
    queue = new Bull(`test-lanes-${randomUUID()}`, testEnv.redisUrl);
  });
  // Each test is a process of its own, with none of its slots taken.
  beforeEach(() => {
    metrics = new MetricsRegistry();
    lanes = new EndpointLanes(queue, config, metrics);
  });
  const names: string[] = [];
  afterAll(async () => {
    await queue.obliterate({ force: true });
    await queue.client.zrem(OPEN_CIRCUITS, ...names);
    const left = (await Promise.all(names.map((name) => queue.client.keys(`webhooks:lane:{${name}}:*`)))).flat();
    if (left.length > 0) await queue.client.del(...left);
    await queue.close();
  });

  const lane = () => names[names.push(`test-${randomUUID()}`) - 1];
  const admitted = (admission: Admission) => {
    if (admission.kind !== 'admitted') throw new Error(`not admitted but ${admission.kind}`);
    return admission;
  };
  /** One attempt from start to end. */
  const attempt = async (name: string, verdict: 'answered' | 'failed') => lanes.finish(name, admitted(await lanes.admit(name, randomUUID())), verdict);

  it('admits two attempts at a time and wakes a waiter when one ends', async () => {
    const name = lane();
    const first = admitted(await lanes.admit(name, 'a'));
    admitted(await lanes.admit(name, 'b'));
    expect(await lanes.admit(name, 'c')).toEqual({ kind: 'busy' });
    // Another endpoint is not held up by this one.
    expect(await lanes.admit(lane(), 'd')).toMatchObject({ kind: 'admitted', failing: false });

    const waiter = await queue.add({}, { delay: 60_000 });
    await lanes.wait(name, String(waiter.id));
    expect(await lanes.waiting(name)).toBe(1);
    expect(await waiter.getState()).toBe('delayed');

    await lanes.finish(name, first, 'answered');
    expect(await waiter.getState()).toBe('waiting');
    expect(await lanes.waiting(name)).toBe(0);
  });

  it('wakes a waiter at once when an attempt ended between its refusal and its listing', async () => {
    const name = lane();
    const first = admitted(await lanes.admit(name, 'a'));
    admitted(await lanes.admit(name, 'b'));
    expect(await lanes.admit(name, 'c')).toEqual({ kind: 'busy' });
    await lanes.finish(name, first, 'answered');

    const waiter = await queue.add({}, { delay: 60_000 });
    await lanes.wait(name, String(waiter.id));
    expect(await waiter.getState()).toBe('waiting');
  });

  it('opens the circuit after three failures in a row, lets one probe through after the cool-down, and doubles the cool-down when it fails', async () => {
    const name = lane();
    expect(await attempt(name, 'failed')).toBe(0);
    expect(await attempt(name, 'failed')).toBe(0);
    expect(await attempt(name, 'failed')).toBe(COOLDOWN_MS);
    // Counted on /metrics from when it opens until its probe is answered.
    const listed = async () => (await queue.client.zscore(OPEN_CIRCUITS, name)) !== null;
    const openCircuits = async () => (await metrics.registry.getSingleMetricAsString('webhook_circuits_open')).match(/^webhook_circuits_open (\d+)$/m)?.[1];
    expect(await listed()).toBe(true);
    expect(Number(await openCircuits())).toBeGreaterThan(0);
    const open = await lanes.admit(name, 'x');
    expect(open).toMatchObject({ kind: 'open', remainingMs: expect.any(Number) });
    expect((open as { remainingMs: number }).remainingMs).toBeLessThanOrEqual(COOLDOWN_MS);

    await sleep(COOLDOWN_MS + 50);
    const probe = admitted(await lanes.admit(name, 'p'));
    expect(probe).toMatchObject({ probe: true, failing: true });
    // Half-open: the probe goes alone.
    expect(await lanes.admit(name, 'q')).toEqual({ kind: 'busy' });
    expect(await lanes.finish(name, probe, 'failed')).toBe(2 * COOLDOWN_MS);
    expect((await lanes.admit(name, 'r')) as { remainingMs: number }).toMatchObject({ kind: 'open', remainingMs: expect.toSatisfy((ms: number) => ms > COOLDOWN_MS) });
    expect(await listed()).toBe(true);

    await sleep(2 * COOLDOWN_MS + 50);
    await lanes.finish(name, admitted(await lanes.admit(name, 's')), 'answered');
    expect(await listed()).toBe(false);
    // Closed: two at a time again, and no longer failing.
    expect(await lanes.admit(name, 't')).toMatchObject({ kind: 'admitted', probe: false, failing: false });
    expect(await lanes.admit(name, 'u')).toMatchObject({ kind: 'admitted' });
  });

  it('counts failures only in a row: an answer in between starts the count again', async () => {
    const name = lane();
    await attempt(name, 'failed');
    await attempt(name, 'failed');
    await attempt(name, 'answered');
    expect(await attempt(name, 'failed')).toBe(0);
    expect(await attempt(name, 'failed')).toBe(0);
    expect(await lanes.admit(name, 'x')).toMatchObject({ kind: 'admitted', failing: true });
  });

  it('gives attempts to failing endpoints at most half of the process, and the rest to the others', async () => {
    const [f1, f2, f3] = [lane(), lane(), lane()];
    for (const name of [f1, f2, f3]) await attempt(name, 'failed');

    const one = admitted(await lanes.admit(f1, 'a'));
    admitted(await lanes.admit(f2, 'b'));
    expect(await lanes.admit(f3, 'c')).toEqual({ kind: 'crowded' });
    expect(await lanes.admit(lane(), 'd')).toMatchObject({ kind: 'admitted', failing: false });

    await lanes.finish(f1, one, 'failed');
    expect(await lanes.admit(f3, 'c')).toMatchObject({ kind: 'admitted', failing: true });
  });

  describe('with a lock of a second, as a process renews its jobs', () => {
    const shortLeases = loadConfig(WebhookDispatcherConfig, { WEBHOOK_ENDPOINT_CONCURRENCY: '2', QUEUE_LOCK_DURATION_MS: '1000', QUEUE_LOCK_RENEW_MS: '250' });

    it('keeps the place of an attempt for as long as it runs', async () => {
      const running = new EndpointLanes(queue, shortLeases, new MetricsRegistry());
      const name = lane();
      const first = admitted(await running.admit(name, 'a'));
      admitted(await running.admit(name, 'b'));
      await sleep(2500);
      expect(await running.admit(name, 'c')).toEqual({ kind: 'busy' });
      await running.finish(name, first, 'answered');
      expect(await running.admit(name, 'c')).toMatchObject({ kind: 'admitted' });
    });

    it('frees the places of a process that died once their leases run out, and the next attempt wakes a waiter', async () => {
      const name = lane();
      // A process of its own, with a connection of its own: closing it ends every renewal, as dying would.
      const doomedQueue = new Bull(queue.name, testEnv.redisUrl);
      const doomed = new EndpointLanes(doomedQueue, shortLeases, new MetricsRegistry());
      admitted(await doomed.admit(name, 'a'));
      admitted(await doomed.admit(name, 'b'));
      const survivor = new EndpointLanes(queue, shortLeases, new MetricsRegistry());
      expect(await survivor.admit(name, 'c')).toEqual({ kind: 'busy' });
      const waiter = await queue.add({}, { delay: 60_000 });
      await survivor.wait(name, String(waiter.id));
      await doomedQueue.close();

      await sleep(1200);
      admitted(await survivor.admit(name, 'd'));
      expect(await waiter.getState()).toBe('waiting');
      expect(await survivor.waiting(name)).toBe(0);
    });
  });
});
