import type { AdvancedSettings } from 'bull';

export const QUEUE_OPTIONS = Symbol('QUEUE_OPTIONS');

export interface QueueModuleOptions {
  redisUrl: string;
  /**
   * A command of a queue's own Redis connection without an answer this long fails, so a Redis
   * that hangs fails jobs' and producers' calls instead of holding them (REDIS_COMMAND_TIMEOUT_MS).
   * The connection that waits for new jobs blocks by design and has no such deadline.
   */
  commandTimeoutMs?: number;
  /** Jobs one process runs at the same time on each queue it consumes. */
  concurrency?: number;
  /** The process's whole shutdown budget (SHUTDOWN_TIMEOUT_MS); running jobs get most of it. */
  shutdownTimeoutMs?: number;
  /** How running jobs are locked and stalled ones taken up again (Bull's defaults when absent). */
  locks?: Pick<AdvancedSettings, 'lockDuration' | 'lockRenewTime' | 'stalledInterval' | 'maxStalledCount'>;
}
