import { DatabaseRedisConfig, EnvInt } from '@platform/service-kit';
import { IsInt, Max, Min } from 'class-validator';

/** Settings of a process that consumes a queue; each worker app's config extends it. */
export class WorkerConfig extends DatabaseRedisConfig {
  /** Jobs this process runs at the same time; running more replicas adds up. */
  @EnvInt() @IsInt() @Min(1) @Max(64)
  WORKER_CONCURRENCY = 4;
}
