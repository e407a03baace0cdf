import { BeforeApplicationShutdown, Logger, OnModuleInit } from '@nestjs/common';
import type { Job, JobId, Queue } from 'bull';
import { inJobSpan } from './job-span';
import type { JobType } from './job-type';
import { PermanentJobError } from './permanent-job.error';
import { JOB_HANDLER } from './process-job.decorator';
import { WorkerRuntime } from './worker-runtime.service';

type Handler = (job: Job) => Promise<unknown>;
type Outcome = 'completed' | 'retrying' | 'failed';

/** Bull's reason for a job it failed itself after more than QUEUE_MAX_STALLED_COUNT stalls. */
const STALLED_TOO_OFTEN = 'job stalled more than allowable limit';

/**
 * Base class of every queue consumer; it holds the policy all job handlers share.
 *
 * - Handlers are methods marked `@ProcessJob(SomeJob)`. One pool of `concurrency` slots runs
 *   them all, whatever the job type (Bull would otherwise add up a concurrency per job name).
 * - A failed attempt is retried with the job type's backoff; a `PermanentJobError` fails the
 *   job at once. Each outcome is one log line (never the payload) and a counter.
 * - Each attempt runs in a span that continues the trace its producer put in the job's data
 *   (`enqueue` and the outbox do), so its log lines carry that trace's id.
 * - A job whose worker died (its lock ran out) is put back by Bull's stalled-job check, up to
 *   QUEUE_MAX_STALLED_COUNT times; then Bull fails it without any handler running. Both are
 *   logged and counted here; what the job stands for must be recovered by its owner (batch-worker
 *   reconciles batches from Postgres).
 * - On shutdown the worker stops fetching jobs and lets running ones finish until the drain
 *   deadline; jobs still running then are handed back to the queue as a failed attempt, so
 *   another worker retries them instead of waiting for their lock to expire.
 *
 *   @Injectable()
 *   export class BatchWorker extends QueueWorker {
 *     constructor(@InjectQueue(QueueName.Batches) queue: Queue, runtime: WorkerRuntime) {
 *       super(queue, runtime);
 *     }
 *     @ProcessJob(TranslateBatchJob)
 *     async translate(job: Job<TranslateBatchJob>) { ... }
 *   }
 */
export abstract class QueueWorker implements OnModuleInit, BeforeApplicationShutdown {
  protected readonly logger = new Logger(this.constructor.name);
  private readonly running = new Map<JobId, Job>();

  protected constructor(
    protected readonly queue: Queue,
    private readonly runtime: WorkerRuntime,
  ) {}

  onModuleInit(): void {
    const handlers = this.handlers();
    // Resolves only when the queue closes; while Redis is away Bull keeps reconnecting by itself.
    this.queue
      .process('*', this.runtime.concurrency, (job: Job) => inJobSpan(this.queue.name, job, () => this.perform(job, handlers)))
      .catch((error: unknown) => this.logger.error({ msg: 'queue processing stopped', queue: this.queue.name, err: String(error) }));
    this.runtime.known(this.queue.name, [...handlers.keys()]);
    this.queue.on('stalled', (job: Job) => {
      this.runtime.outcomes.stalled.inc({ queue: this.queue.name, job_name: job.name });
      this.logger.warn({ msg: 'job stalled: its worker stopped renewing the lock; queued again', ...this.describe(job) });
    });
    this.queue.on('failed', (job: Job, error: Error) => {
      // Failures of a handler were reported in `perform`; this one failed while no handler ran.
      if (error.message === STALLED_TOO_OFTEN) this.report(job, 'failed', job.processedOn ?? Date.now(), error);
    });
  }

  /**
   * Runs before @nestjs/bull's own shutdown hook, which calls `queue.close()` and would wait for
   * running jobs without any limit; by then the queue is closed here and that call returns at once.
   */
  async beforeApplicationShutdown(): Promise<void> {
    // A local pause stops this process fetching jobs and resolves once running jobs are settled
    // in Redis; other replicas keep working the queue.
    const drained = await settlesWithin(this.queue.pause(true), this.runtime.drainTimeoutMs);
    if (!drained) await Promise.all([...this.running.values()].map((job) => this.handBack(job)));
    await this.queue.close(!drained);
  }

  private handlers(): Map<string, Handler> {
    const handlers = new Map<string, Handler>();
    for (let proto = Object.getPrototypeOf(this); proto && proto !== QueueWorker.prototype; proto = Object.getPrototypeOf(proto)) {
      for (const key of Object.getOwnPropertyNames(proto)) {
        const method = Object.getOwnPropertyDescriptor(proto, key)?.value;
        const type: JobType | undefined = typeof method === 'function' ? Reflect.getMetadata(JOB_HANDLER, method) : undefined;
        // Walking from the most derived class, an overriding handler wins over the one it overrides.
        if (!type || handlers.has(type.name)) continue;
        if (type.queue !== this.queue.name) {
          throw new Error(`${this.constructor.name}.${key} handles ${type.name} of queue "${type.queue}" but consumes "${this.queue.name}"`);
        }
        handlers.set(type.name, method.bind(this));
      }
    }
    if (handlers.size === 0) throw new Error(`${this.constructor.name} has no @ProcessJob handler`);
    return handlers;
  }

  private async perform(job: Job, handlers: Map<string, Handler>): Promise<unknown> {
    const started = Date.now();
    this.running.set(job.id, job);
    try {
      const handler = handlers.get(job.name);
      // A job type this build does not know yet (rolling deploy): retry, a newer worker may.
      if (!handler) throw new Error(`${this.constructor.name} has no handler for job ${job.name}`);
      const result = await handler(job);
      this.report(job, 'completed', started);
      return result;
    } catch (error) {
      const permanent = error instanceof PermanentJobError;
      if (permanent) await job.discard();
      const retrying = !permanent && job.attemptsMade + 1 < (job.opts.attempts ?? 1);
      this.report(job, retrying ? 'retrying' : 'failed', started, error);
      throw error;
    } finally {
      this.running.delete(job.id);
    }
  }

  private async handBack(job: Job): Promise<void> {
    try {
      // Ignoring the lock: this process holds it, and is about to drop its connection.
      await job.moveToFailed({ message: 'the worker shut down before the job finished' }, true);
      this.logger.warn({ msg: 'job handed back at shutdown', ...this.describe(job) });
    } catch (error) {
      // Its lock expires instead and Bull's stalled-job check puts it back.
      this.logger.warn({ msg: 'could not hand back job at shutdown', ...this.describe(job), err: String(error) });
    }
  }

  private report(job: Job, outcome: Outcome, started: number, error?: unknown): void {
    const line = { msg: `job ${outcome}`, ...this.describe(job), ms: Date.now() - started };
    const labels = { queue: this.queue.name, job_name: job.name };
    if (outcome === 'completed') {
      this.runtime.outcomes.completed.inc(labels);
      this.logger.log(line);
      return;
    }
    const err = error instanceof Error ? error.message : String(error);
    if (outcome === 'retrying') {
      this.runtime.outcomes.retried.inc(labels);
      this.logger.warn({ ...line, err });
    } else {
      this.runtime.outcomes.failed.inc(labels);
      this.logger.error({ ...line, err, permanent: error instanceof PermanentJobError });
    }
  }

  private describe(job: Job) {
    return { queue: this.queue.name, job: job.name, jobId: job.id, attempt: job.attemptsMade + 1, attempts: job.opts.attempts ?? 1 };
  }
}

async function settlesWithin(promise: Promise<unknown>, ms: number): Promise<boolean> {
  let timer: NodeJS.Timeout | undefined;
  const deadline = new Promise<false>((resolve) => (timer = setTimeout(() => resolve(false), ms)));
  const settled = promise.then(
    () => true,
    () => true,
  );
  try {
    return await Promise.race([settled, deadline]);
  } finally {
    clearTimeout(timer);
  }
}
