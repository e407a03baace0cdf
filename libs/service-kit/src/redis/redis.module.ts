import { DynamicModule, Global, Inject, Injectable, Module, OnApplicationShutdown, OnModuleInit } from '@nestjs/common';
import { Redis } from 'ioredis';
import { HealthRegistry } from '../health/health.registry';

export const REDIS = Symbol('REDIS');

/**
 * A shared Redis client for request-path state (rate limits, idempotency). Commands fail at once
 * while Redis is unreachable instead of queueing, and after `commandTimeoutMs` (REDIS_COMMAND_TIMEOUT_MS)
 * while it hangs, so callers can degrade and /health turns 503; the client reconnects by itself
 * when Redis returns.
 */
export function createRedisClient(url: string, commandTimeoutMs?: number): Redis {
  const redis = new Redis(url, {
    enableOfflineQueue: false,
    maxRetriesPerRequest: 1,
    connectTimeout: 2000,
    commandTimeout: commandTimeoutMs,
    retryStrategy: (attempt) => Math.min(attempt * 200, 2000),
  });
  // Errors are reported through /health; without a listener ioredis would print each one.
  redis.on('error', () => undefined);
  return redis;
}

export function waitUntilReady(redis: Redis, timeoutMs: number): Promise<boolean> {
  if (redis.status === 'ready') return Promise.resolve(true);
  return new Promise((resolve) => {
    const timer = setTimeout(() => {
      redis.off('ready', onReady);
      resolve(false);
    }, timeoutMs);
    const onReady = () => {
      clearTimeout(timer);
      resolve(true);
    };
    redis.once('ready', onReady);
  });
}

@Injectable()
class RedisLifecycle implements OnModuleInit, OnApplicationShutdown {
  constructor(
    @Inject(REDIS) private readonly redis: Redis,
    private readonly health: HealthRegistry,
  ) {}

  async onModuleInit() {
    this.health.register('redis', () => this.redis.ping());
    // Give the first connection a moment so a healthy start reports ready; never block start-up.
    await waitUntilReady(this.redis, 3000);
  }

  async onApplicationShutdown() {
    this.redis.disconnect();
  }
}

@Global()
@Module({})
export class RedisModule {
  static forRoot(url: string, commandTimeoutMs: number): DynamicModule {
    return {
      module: RedisModule,
      providers: [{ provide: REDIS, useFactory: () => createRedisClient(url, commandTimeoutMs) }, RedisLifecycle],
      exports: [REDIS],
    };
  }
}
