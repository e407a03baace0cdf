import { DatabaseRedisConfig, EnvInt } from '@platform/service-kit';
import { IsInt, Max, Min } from 'class-validator';

/**
 * Settings of a process that consumes a queue; each worker app's config extends it, and may
 * change the defaults of the lock settings to suit its jobs (Bull's own defaults here).
 */
export class WorkerConfig extends DatabaseRedisConfig {
  /** Jobs this process runs at the same time; running more replicas adds up. */
  @EnvInt() @IsInt() @Min(1) @Max(64)
  WORKER_CONCURRENCY = 4;

  /**
   * A running job holds a lock this long, renewed at half of it; a job whose worker died is
   * taken up again once its lock has run out.
   */
  @EnvInt() @IsInt() @Min(1000) @Max(3600_000)
  QUEUE_LOCK_DURATION_MS = 30_000;

  /** How often the queue looks for running jobs whose lock ran out (stalled jobs). */
  @EnvInt() @IsInt() @Min(100) @Max(3600_000)
  QUEUE_STALLED_INTERVAL_MS = 30_000;

  /** How often one job may stall and be taken up again before Bull fails it. */
  @EnvInt() @IsInt() @Min(0) @Max(1000)
  QUEUE_MAX_STALLED_COUNT = 1;
}
