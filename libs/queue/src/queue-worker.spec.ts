import { getQueueToken, InjectQueue } from '@nestjs/bull';
import { Injectable } from '@nestjs/common';
import { Test, TestingModule } from '@nestjs/testing';
import { HealthModule, MetricsRegistry } from '@platform/service-kit';
import { expectEventually, type OwnDependency, pollUntil, startOwnRedis, testEnv } from '@platform/testing';
import Bull, { type Job, type Queue } from 'bull';
import { randomUUID } from 'node:crypto';
import { afterAll, afterEach, beforeAll, describe, expect, it } from 'vitest';
import { jobSnapshot } from './job-state';
import { enqueue, type JobType } from './job-type';
import { PermanentJobError } from './permanent-job.error';
import { ProcessJob } from './process-job.decorator';
import { QueueModule } from './queue.module';
import { QueueWorker } from './queue-worker';
import { WorkerRuntime } from './worker-runtime.service';

/** A job type on a queue of its own, so parallel tests never see each other's jobs. */
function defineExampleJob() {
  const queue = `test-worker-${randomUUID()}`;
  class ExampleJob {
    static readonly queue = queue;
    static readonly retry = { attempts: 3, backoffMs: 10 };
    constructor(readonly label: string) {}
  }
  return ExampleJob;
}
type ExampleJob = InstanceType<ReturnType<typeof defineExampleJob>>;

const opened: TestingModule[] = [];
const queueNames: string[] = [];

interface WorkerOptions {
  shutdownTimeoutMs?: number;
  redisUrl?: string;
  commandTimeoutMs?: number;
}

async function startWorker(type: JobType<ExampleJob>, handle: (job: Job<ExampleJob>) => Promise<unknown>, options: WorkerOptions = {}) {
  const { shutdownTimeoutMs = 20_000, redisUrl = testEnv.redisUrl, commandTimeoutMs } = options;
  @Injectable()
  class ExampleWorker extends QueueWorker {
    constructor(@InjectQueue(type.queue) queue: Queue, runtime: WorkerRuntime) {
      super(queue, runtime);
    }

    @ProcessJob(type)
    example(job: Job<ExampleJob>) {
      return handle(job);
    }
  }
  const moduleRef = await Test.createTestingModule({
    imports: [HealthModule, QueueModule.forRoot({ redisUrl, commandTimeoutMs, concurrency: 2, shutdownTimeoutMs }), QueueModule.registerQueue(type.queue)],
    providers: [ExampleWorker],
  }).compile();
  moduleRef.useLogger(false);
  await moduleRef.init();
  opened.push(moduleRef);
  if (redisUrl === testEnv.redisUrl) queueNames.push(type.queue);
  return { moduleRef, queue: moduleRef.get<Queue>(getQueueToken(type.queue)) };
}

/** Reads a job through a connection of its own, which outlives the workers under test. */
async function jobState(queueName: string, id: Bull.JobId) {
  const queue = new Bull(queueName, testEnv.redisUrl);
  try {
    return await jobSnapshot(queue, id);
  } finally {
    await queue.close();
  }
}

function counter(moduleRef: TestingModule, name: string, queue: string): Promise<string | undefined> {
  return moduleRef
    .get(MetricsRegistry)
    .registry.getSingleMetricAsString(name)
    .then((text) => text.split('\n').find((line) => line.includes(`queue="${queue}"`) && line.includes('job_name="ExampleJob"')));
}

afterEach(async () => {
  await Promise.all(opened.splice(0).map((m) => m.close()));
  for (const name of queueNames.splice(0)) {
    const queue = new Bull(name, testEnv.redisUrl);
    await queue.obliterate({ force: true });
    await queue.close();
  }
});

describe('QueueWorker on a real queue', () => {
  it('runs a job to completion and counts it', async () => {
    const ExampleJob = defineExampleJob();
    const { moduleRef, queue } = await startWorker(ExampleJob, async (job) => `done ${job.data.label}`);

    const job = await enqueue(queue, new ExampleJob('a'));
    expect(job.name).toBe('ExampleJob');
    expect(job.data).toEqual({ label: 'a' });

    const final = await pollUntil(() => jobState(ExampleJob.queue, job.id), (s) => s.state === 'completed', { what: 'completion' });
    expect(final).toMatchObject({ attemptsMade: 0, returnvalue: 'done a' });
    expect(await counter(moduleRef, 'jobs_completed_total', ExampleJob.queue)).toMatch(/ 1$/);
  });

  it('retries a failed attempt with backoff and then succeeds', async () => {
    const ExampleJob = defineExampleJob();
    let calls = 0;
    const { moduleRef, queue } = await startWorker(ExampleJob, async () => {
      calls += 1;
      if (calls === 1) throw new Error('engine briefly down');
      return 'second time lucky';
    });

    const job = await enqueue(queue, new ExampleJob('b'));
    const final = await pollUntil(() => jobState(ExampleJob.queue, job.id), (s) => s.state === 'completed', { what: 'completion' });
    expect(final).toMatchObject({ attemptsMade: 1, returnvalue: 'second time lucky' });
    expect(calls).toBe(2);
    expect(await counter(moduleRef, 'jobs_retried_total', ExampleJob.queue)).toMatch(/ 1$/);
    expect(await counter(moduleRef, 'jobs_completed_total', ExampleJob.queue)).toMatch(/ 1$/);
  });

  it('fails a job at once on a PermanentJobError, discarding its remaining attempts', async () => {
    const ExampleJob = defineExampleJob();
    let calls = 0;
    const { moduleRef, queue } = await startWorker(ExampleJob, async () => {
      calls += 1;
      throw new PermanentJobError('the batch no longer exists');
    });

    const job = await enqueue(queue, new ExampleJob('c'));
    const final = await pollUntil(() => jobState(ExampleJob.queue, job.id), (s) => s.state === 'failed', { what: 'failure' });
    expect(final).toMatchObject({ attemptsMade: 1, failedReason: 'the batch no longer exists' });
    expect(calls).toBe(1);
    expect(await counter(moduleRef, 'jobs_failed_total', ExampleJob.queue)).toMatch(/ 1$/);
  });

  it('lets a running job finish before closing', async () => {
    const ExampleJob = defineExampleJob();
    let release!: () => void;
    const gate = new Promise<void>((resolve) => (release = resolve));
    let started!: () => void;
    const running = new Promise<void>((resolve) => (started = resolve));
    const { moduleRef, queue } = await startWorker(ExampleJob, async () => {
      started();
      await gate;
      return 'finished during shutdown';
    });

    const job = await enqueue(queue, new ExampleJob('d'));
    await running;
    let closed = false;
    const closing = moduleRef.close().then(() => (closed = true));
    await new Promise((resolve) => setTimeout(resolve, 300));
    expect(closed).toBe(false);

    release();
    await closing;
    expect(await jobState(ExampleJob.queue, job.id)).toMatchObject({ state: 'completed', returnvalue: 'finished during shutdown' });
  });

  it('refuses to start a worker whose handler belongs to another queue', async () => {
    const ExampleJob = defineExampleJob();
    const otherQueue = defineExampleJob().queue;
    @Injectable()
    class MisplacedWorker extends QueueWorker {
      constructor(@InjectQueue(otherQueue) queue: Queue, runtime: WorkerRuntime) {
        super(queue, runtime);
      }

      @ProcessJob(ExampleJob)
      example() {
        return Promise.resolve();
      }
    }
    const moduleRef = await Test.createTestingModule({
      imports: [HealthModule, QueueModule.forRoot({ redisUrl: testEnv.redisUrl }), QueueModule.registerQueue(otherQueue)],
      providers: [MisplacedWorker],
    }).compile();
    moduleRef.useLogger(false);
    opened.push(moduleRef);

    await expect(moduleRef.init()).rejects.toThrow(`MisplacedWorker.example handles ExampleJob of queue "${ExampleJob.queue}" but consumes "${otherQueue}"`);
  });

  it('hands a job still running at the drain deadline back to the queue for another worker', async () => {
    const ExampleJob = defineExampleJob();
    let started!: () => void;
    const running = new Promise<void>((resolve) => (started = resolve));
    const first = await startWorker(
      ExampleJob,
      () => {
        started();
        return new Promise(() => undefined);
      },
      { shutdownTimeoutMs: 1000 },
    );
    const job = await enqueue(first.queue, new ExampleJob('e'));
    await running;
    await first.moduleRef.close();

    const handedBack = await jobState(ExampleJob.queue, job.id);
    expect(handedBack.state).toMatch(/^(delayed|waiting)$/);
    expect(handedBack.failedReason).toBe('the worker shut down before the job finished');

    await startWorker(ExampleJob, async () => 'finished by the next worker');
    await expectEventually(async () => {
      expect(await jobState(ExampleJob.queue, job.id)).toMatchObject({ state: 'completed', returnvalue: 'finished by the next worker' });
    });
  });
});

describe('QueueMonitor on a real queue', () => {
  it("exports the age of a queue's oldest waiting job, 0 once none waits, and no job outcomes in a process that only queues", async () => {
    const ExampleJob = defineExampleJob();
    const moduleRef = await Test.createTestingModule({ imports: [HealthModule, QueueModule.forRoot({ redisUrl: testEnv.redisUrl }), QueueModule.registerQueue(ExampleJob.queue)] }).compile();
    moduleRef.useLogger(false);
    await moduleRef.init();
    opened.push(moduleRef);
    queueNames.push(ExampleJob.queue);
    const queue = moduleRef.get<Queue>(getQueueToken(ExampleJob.queue));
    const metrics = moduleRef.get(MetricsRegistry).registry;
    const oldestAge = async () =>
      Number(new RegExp(`^queue_oldest_waiting_job_age_seconds\\{queue="${ExampleJob.queue}"\\} (\\S+)$`, 'm').exec(await metrics.metrics())?.[1]);

    const first = await enqueue(queue, new ExampleJob('first'));
    await new Promise((resolve) => setTimeout(resolve, 1200));
    await enqueue(queue, new ExampleJob('second'));
    // A job delayed until the future is not due, so it does not count.
    await enqueue(queue, new ExampleJob('later'), { delay: 60_000 });
    expect(await oldestAge()).toBeGreaterThanOrEqual(1.2);
    expect(await oldestAge()).toBeLessThan(10);

    await first.remove();
    expect(await oldestAge()).toBeLessThan(1.2);
    await queue.empty();
    expect(await oldestAge()).toBe(0);
    expect(await metrics.getSingleMetric('jobs_completed_total')).toBeUndefined();
  });
});

describe('QueueWorker with a Redis that hangs', () => {
  let redis: OwnDependency;

  beforeAll(async () => {
    redis = await startOwnRedis();
  });
  afterAll(() => redis?.destroy());

  it('waits for jobs longer than the command deadline without a failed command, and its calls fail within the deadline while Redis hangs, then work again', async () => {
    const ExampleJob = defineExampleJob();
    const { queue } = await startWorker(ExampleJob, async (job) => `done ${job.data.label}`, { redisUrl: redis.url, commandTimeoutMs: 300 });
    const errors: string[] = [];
    queue.on('error', (error: Error) => errors.push(error.message));
    // The worker's blocking wait for jobs outlasts the deadline many times over and is no failure.
    await new Promise((resolve) => setTimeout(resolve, 1500));
    expect(errors).toEqual([]);

    redis.freeze();
    try {
      const started = Date.now();
      await expect(enqueue(queue, new ExampleJob('frozen'))).rejects.toThrow('Command timed out');
      expect(Date.now() - started).toBeLessThan(1500);
    } finally {
      redis.thaw();
    }

    const job = await enqueue(queue, new ExampleJob('after'));
    await expectEventually(async () => expect(await job.finished()).toBe('done after'), { timeoutMs: 15_000 });
  });
});
