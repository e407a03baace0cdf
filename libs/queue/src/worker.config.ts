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
 * Settings of a process that consumes a queue; each worker app's config extends it, and may
 * change the defaults of the lock settings to suit its jobs (Bull's own defaults here).
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
  QUEUE_LOCK_DURATION_MS = 30_000;

  /** How often a running job's lock is renewed; half of QUEUE_LOCK_DURATION_MS when unset. */
  @EnvInt() @IsOptional() @IsInt() @Min(100) @IsBelowLockDuration()
  QUEUE_LOCK_RENEW_MS?: number;

  /** How often the queue looks for running jobs whose lock ran out (stalled jobs). */
  @EnvInt() @IsInt() @Min(100) @Max(3600_000)
  QUEUE_STALLED_INTERVAL_MS = 30_000;

  /** How often one job may stall and be taken up again before Bull fails it. */
  @EnvInt() @IsInt() @Min(0) @Max(1000)
  QUEUE_MAX_STALLED_COUNT = 1;
}
