import type { AdvancedSettings } from 'bull';

export const QUEUE_OPTIONS = Symbol('QUEUE_OPTIONS');

export interface QueueModuleOptions {
  redisUrl: string;
  /** Jobs one process runs at the same time on each queue it consumes. */
  concurrency?: number;
  /** The process's whole shutdown budget (SHUTDOWN_TIMEOUT_MS); running jobs get most of it. */
  shutdownTimeoutMs?: number;
  /** How running jobs are locked and stalled ones taken up again (Bull's defaults when absent). */
  locks?: Pick<AdvancedSettings, 'lockDuration' | 'lockRenewTime' | 'stalledInterval' | 'maxStalledCount'>;
}
