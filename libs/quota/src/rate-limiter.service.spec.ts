import { Logger } from '@nestjs/common';
import { createRedisClient, waitUntilReady } from '@platform/service-kit';
import { testEnv } from '@platform/testing';
import { Redis } from 'ioredis';
import { randomUUID } from 'node:crypto';
import { once } from 'node:events';
import { afterAll, beforeAll, describe, expect, it, vi } from 'vitest';
import { RateLimiter } from './rate-limiter.service';

describe('RateLimiter', () => {
  const clients: Redis[] = [];
  let limiter: RateLimiter;

  const connect = async () => {
    const client = createRedisClient(testEnv.redisUrl);
    client.on('error', () => undefined);
    clients.push(client);
    expect(await waitUntilReady(client, 5000)).toBe(true);
    return client;
  };

  /** Puts `count` requests into a key's log as if they had arrived `ageMs` ago by Redis' clock. */
  const seed = async (redis: Redis, keyId: string, count: number, ageMs: number) => {
    const [seconds, micros] = await redis.time();
    const at = Number(seconds) * 1_000_000 + Number(micros) - ageMs * 1000;
    await redis.zadd(`ratelimit:${keyId}`, ...Array.from({ length: count }, (_, i) => [at, `seed-${i}`]).flat());
  };

  beforeAll(async () => {
    limiter = new RateLimiter(await connect());
  });
  afterAll(() => clients.forEach((c) => c.disconnect()));

  it('allows 60 requests a minute and refuses the 61st without recording it', async () => {
    const keyId = randomUUID();
    const decisions = await Promise.all(Array.from({ length: 60 }, () => limiter.hit(keyId, 60)));
    expect(decisions.every((d) => d?.allowed)).toBe(true);
    expect(decisions.map((d) => d!.remaining).sort((a, b) => a - b)).toEqual(Array.from({ length: 60 }, (_, i) => i));

    const refused = await limiter.hit(keyId, 60);
    expect(refused).toMatchObject({ allowed: false, limit: 60, remaining: 0 });
    expect(refused!.retryAfterSeconds).toBeGreaterThanOrEqual(1);
    expect(refused!.retryAfterSeconds).toBeLessThanOrEqual(60);
    expect(refused!.resetSeconds).toBe(refused!.retryAfterSeconds);
    expect(await clients[0].zcard(`ratelimit:${keyId}`)).toBe(60);
  });

  it('counts each key on its own', async () => {
    const busy = randomUUID();
    await Promise.all(Array.from({ length: 5 }, () => limiter.hit(busy, 5)));
    expect((await limiter.hit(busy, 5))!.allowed).toBe(false);
    expect(await limiter.hit(randomUUID(), 5)).toMatchObject({ allowed: true, remaining: 4 });
  });

  it('shares one limit between replicas with their own Redis connections', async () => {
    const replicas = [limiter, new RateLimiter(await connect())];
    const keyId = randomUUID();
    const decisions = await Promise.all(Array.from({ length: 61 }, (_, i) => replicas[i % 2].hit(keyId, 60)));
    expect(decisions.filter((d) => d!.allowed)).toHaveLength(60);
    expect(decisions.filter((d) => !d!.allowed)).toHaveLength(1);
    expect((await replicas[1].hit(keyId, 60))!.allowed).toBe(false);
  });

  it('applies a per-key limit, and a raised limit at once', async () => {
    const keyId = randomUUID();
    for (let i = 0; i < 3; i++) expect((await limiter.hit(keyId, 3))!.allowed).toBe(true);
    expect(await limiter.hit(keyId, 3)).toMatchObject({ allowed: false, limit: 3, remaining: 0 });
    expect(await limiter.hit(keyId, 5)).toMatchObject({ allowed: true, limit: 5, remaining: 1 });
  });

  it('forgets requests older than the 60 second window', async () => {
    const keyId = randomUUID();
    await seed(clients[0], keyId, 10, 61_000);
    expect(await limiter.hit(keyId, 10)).toMatchObject({ allowed: true, remaining: 9 });
  });

  it('tells a refused client to wait until the oldest request leaves the window', async () => {
    const keyId = randomUUID();
    await seed(clients[0], keyId, 10, 59_200);
    expect(await limiter.hit(keyId, 10)).toMatchObject({ allowed: false, retryAfterSeconds: 1, resetSeconds: 1 });

    // After lowering a limit, the wait covers every request above the new limit.
    const lowered = randomUUID();
    await seed(clients[0], lowered, 3, 50_000);
    await seed(clients[0], lowered, 3, 10_000);
    const decision = await limiter.hit(lowered, 2);
    expect(decision!.allowed).toBe(false);
    expect(decision!.retryAfterSeconds).toBeGreaterThanOrEqual(49);
    expect(decision!.retryAfterSeconds).toBeLessThanOrEqual(50);
  });

  it('lets requests through and warns once per outage while Redis is unreachable', async () => {
    const redis = await connect();
    const outageLimiter = new RateLimiter(redis);
    const warn = vi.spyOn(Logger.prototype, 'warn');
    const cutOff = async () => {
      const closed = once(redis, 'end');
      redis.disconnect();
      await closed;
    };
    try {
      await cutOff();
      expect(await outageLimiter.hit(randomUUID(), 1)).toBeNull();
      expect(await outageLimiter.hit(randomUUID(), 1)).toBeNull();
      expect(warn).toHaveBeenCalledTimes(1);

      await redis.connect();
      expect((await outageLimiter.hit(randomUUID(), 1))!.allowed).toBe(true);
      await cutOff();
      expect(await outageLimiter.hit(randomUUID(), 1)).toBeNull();
      expect(warn).toHaveBeenCalledTimes(2);
    } finally {
      warn.mockRestore();
    }
  });

  it('rejects a limit that is not a positive integer', async () => {
    await expect(limiter.hit(randomUUID(), 0)).rejects.toThrow(RangeError);
  });

  it('counts a request against several windows at once, recording it in all of them or in none', async () => {
    const [key, other, account] = [randomUUID(), randomUUID(), `account:${randomUUID()}`];
    const both = (id: string) => limiter.hitAll([{ id, limit: 10 }, { id: account, limit: 3 }]);
    // The figures are those of the window with the fewest requests left.
    expect(await both(key)).toMatchObject({ allowed: true, window: { id: account }, remaining: 2 });
    expect(await limiter.hitAll([{ id: other, limit: 1 }, { id: account, limit: 3 }])).toMatchObject({ allowed: true, window: { id: other }, remaining: 0 });
    expect(await both(key)).toMatchObject({ allowed: true, window: { id: account }, limit: 3, remaining: 0 });
    // The shared window is full: refused for every key in it, and recorded in no window.
    expect(await both(other)).toMatchObject({ allowed: false, window: { id: account }, limit: 3, remaining: 0 });
    expect(await limiter.hit(key, 10)).toMatchObject({ allowed: true, remaining: 7 });
    expect(await limiter.hit(other, 10)).toMatchObject({ allowed: true, remaining: 8 });
    expect(await limiter.hit(account, 3)).toMatchObject({ allowed: false });
  });
});
