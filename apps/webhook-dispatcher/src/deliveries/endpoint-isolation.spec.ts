import { NestFastifyApplication } from '@nestjs/platform-fastify';
import { QueueName } from '@platform/contracts';
import { runMigrations, translationDomain } from '@platform/database';
import { loadConfig } from '@platform/service-kit';
import { createScratchDatabase, leaseRedisDatabase, pollUntil, testAppEnv, WEBHOOK_TEST_ENV, type RedisDatabaseLease, type ScratchDatabase } from '@platform/testing';
import Bull from 'bull';
import { Redis } from 'ioredis';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { WebhookDispatcherConfig } from '../config/webhook-dispatcher.config';
import { serveWebhookDispatcher } from '../webhook-dispatcher.app';
import { deliveryHarness } from './delivery-harness.testing';

const COOLDOWN_MS = 1500;

/** Fewer worker slots than a slow endpoint's events, so that without lanes it would take them all. */
const LANES_ENV = {
  WORKER_CONCURRENCY: '4',
  WEBHOOK_ENDPOINT_CONCURRENCY: '2',
  WEBHOOK_CIRCUIT_FAILURES: '3',
  WEBHOOK_CIRCUIT_COOLDOWN_MS: String(COOLDOWN_MS),
};

// On a database and Redis of their own: no other test file's dispatcher, with other settings,
// takes these deliveries.
describe.concurrent('endpoint isolation (webhook-dispatcher with slow and failing receivers)', () => {
  let database: ScratchDatabase;
  let redis: RedisDatabaseLease;
  let app: NestFastifyApplication;
  const { subscriber, publish, attempts, settled, stopReceivers } = deliveryHarness(
    () => app,
    () => database.url,
  );

  beforeAll(async () => {
    database = await createScratchDatabase('platform_webhook_lanes');
    await runMigrations(database.url, translationDomain);
    redis = await leaseRedisDatabase();
    await clearQueue(redis.url);
    app = await serveWebhookDispatcher(
      loadConfig(WebhookDispatcherConfig, testAppEnv({ ...WEBHOOK_TEST_ENV, ...LANES_ENV, DATABASE_URL: database.url, REDIS_URL: redis.url })),
    );
  });
  afterAll(async () => {
    await app?.close();
    await stopReceivers();
    await clearQueue(redis.url);
    await redis.release();
    await database.drop();
  });

  it("delivers another account's event while a receiver that never answers holds its events back, never more than two at a time", async () => {
    const slow = await subscriber(() => 'hang');
    const fast = await subscriber();
    for (let i = 0; i < 8; i++) await publish(slow.accountId);
    await pollUntil(() => slow.hook.received.length, (n) => n >= 2, { what: 'the slow receiver to hold attempts' });

    await publish(fast.accountId);
    await pollUntil(() => fast.hook.received.length, (n) => n === 1, { what: "the other account's delivery" });
    // It overtook the slow receiver's waiting events: most of them have not even been tried.
    expect(slow.hook.received.length).toBeLessThan(8);
    expect((await attempts(slow.accountId)).length).toBeLessThan(8);
    // The record is written once the receiver has answered, a moment after it saw the request.
    const fastRows = await pollUntil(() => attempts(fast.accountId), (r) => r.length > 0, { what: "the other account's attempt record" });
    expect(fastRows).toMatchObject([{ attempt: 1, statusCode: 204, final: true }]);

    // Timeouts, circuit and probes go on; the receiver never sees more than its share at once.
    const rows = await pollUntil(() => attempts(slow.accountId), (r) => r.length >= 6, { timeoutMs: 25_000, what: 'six timed-out attempts' });
    expect(rows.every((row) => row.statusCode === null && row.error === `The receiver did not answer within ${WEBHOOK_TEST_ENV.WEBHOOK_TIMEOUT_MS} ms`)).toBe(true);
    expect(slow.hook.connections.peak).toBe(2);
  });

  it('opens the circuit after three failures, probes once after the cool-down, doubles it when the probe fails and closes it when one succeeds', async () => {
    const answeredAt: number[] = [];
    // Four first attempts and the first probe fail; the second probe and all after it succeed.
    const { accountId, hook } = await subscriber((_, index) => {
      answeredAt[index] = Date.now();
      return { status: index < 5 ? 503 : 204 };
    });
    const events = [];
    for (let i = 0; i < 4; i++) events.push(await publish(accountId));

    const rows = await settled(accountId, 9);
    const received = hook.received;
    // The third failure opened the circuit: nothing reached the receiver for the cool-down.
    const thirdFailure = [...answeredAt.slice(0, 4)].sort((a, b) => a - b)[2];
    expect(received[4].at - thirdFailure).toBeGreaterThanOrEqual(COOLDOWN_MS);
    // The failed probe opened it again for twice as long, and the next probe came alone.
    expect(received[5].at - answeredAt[4]).toBeGreaterThanOrEqual(2 * COOLDOWN_MS);
    expect(received[6].at).toBeGreaterThanOrEqual(answeredAt[5]);

    // Held-back attempts were neither made nor recorded: every attempt in the log reached the
    // receiver, each event's attempts are numbered without gaps, and each event ended delivered.
    expect(rows).toHaveLength(received.length);
    expect(received).toHaveLength(9);
    for (const eventId of events) {
      const own = rows.filter((row) => row.eventId === eventId);
      expect(own.map((row) => row.attempt)).toEqual(own.map((_, i) => i + 1));
      expect(own.at(-1)).toMatchObject({ statusCode: 204, final: true });
    }
    expect(new Set(received.map((request) => request.headers['webhook-id']))).toEqual(new Set(events));
  });
});

/** The queue and lane state a run leaves in its leased Redis database. */
async function clearQueue(redisUrl: string): Promise<void> {
  const queue = new Bull(QueueName.Webhooks, redisUrl);
  await queue.obliterate({ force: true });
  await queue.close();
  const redis = new Redis(redisUrl);
  try {
    const lanes = await redis.keys('webhooks:lane:*');
    if (lanes.length > 0) await redis.del(...lanes);
  } finally {
    redis.disconnect();
  }
}
