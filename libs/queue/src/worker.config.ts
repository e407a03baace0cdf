import { DatabaseRedisConfig, EnvInt } from '@platform/service-kit';
import { IsInt, IsOptional, Max, Min, ValidateBy } from 'class-validator';

/** Below the lock's duration, or every lock would run out before it is renewed. */
const IsBelowLockDuration = () =>
  ValidateBy({
    name: 'isBelowLockDuration',
    validator: {
      validate: (value: unknown, args) => typeof value === 'number' && value < (args?.object as WorkerConfig).QUEUE_LOCK_DURATION_MS,
      defaultMessage: () => 'QUEUE_LOCK_RENEW_MS must be below QUEUE_LOCK_DURATION_MS',
    },
  });

/**
 * Settings of a process that consumes a queue; each worker app's config extends it.
 *
 * The lock settings make a job whose worker died move again within about 7 s (its lock runs out
 * after 6 s, the next stall check a second later sees it), and let a job outlive a few dying
 * workers before Bull gives it up. Short locks are safe for the platform's workers only because
 * their jobs run outside the event loop that renews the lock (Apertium in child processes, sharp
 * in libvips threads, webhooks and other engines over the network), so a live worker keeps its
 * lock through a pause of its event loop (or of Redis) of up to 4.5 s; and because each job may
 * run twice: a batch stores, charges and announces each text once (BatchProgress), a webhook
 * attempt on record is not made again (and receivers tell a repeat by its webhook-id), and a
 * variant that is stored is not made again.
 */
export class WorkerConfig extends DatabaseRedisConfig {
  /** Jobs this process runs at the same time; running more replicas adds up. */
  @EnvInt() @IsInt() @Min(1) @Max(64)
  WORKER_CONCURRENCY = 4;

  /**
   * A running job holds a lock this long, renewed every QUEUE_LOCK_RENEW_MS; a job whose worker
   * died is taken up again once its lock has run out. A lock shorter than the longest time the
   * process's event loop can be blocked lets a live worker lose its job to another, which then
   * runs it a second time: only idempotent jobs may have short locks.
   */
  @EnvInt() @IsInt() @Min(1000) @Max(3600_000)
  QUEUE_LOCK_DURATION_MS = 6_000;

  /** How often a running job's lock is renewed; a quarter of QUEUE_LOCK_DURATION_MS when unset. */
  @EnvInt() @IsOptional() @IsInt() @Min(100) @IsBelowLockDuration()
  QUEUE_LOCK_RENEW_MS?: number;

  /** How often the queue looks for running jobs whose lock ran out (stalled jobs). */
  @EnvInt() @IsInt() @Min(100) @Max(3600_000)
  QUEUE_STALLED_INTERVAL_MS = 1_000;

  /** How often one job may stall and be taken up again before Bull fails it. */
  @EnvInt() @IsInt() @Min(0) @Max(1000)
  QUEUE_MAX_STALLED_COUNT = 3;
}
