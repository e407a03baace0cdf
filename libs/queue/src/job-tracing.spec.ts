import { getQueueToken, InjectQueue } from '@nestjs/bull';
import { Injectable } from '@nestjs/common';
import { Test, type TestingModule } from '@nestjs/testing';
import { trace } from '@opentelemetry/api';
import { NodeSDK } from '@opentelemetry/sdk-node';
import { HealthModule } from '@platform/service-kit';
import { pollUntil, startOtlpReceiver, testEnv, type OtlpReceiver } from '@platform/testing';
import type { Job, Queue } from 'bull';
import { randomUUID } from 'node:crypto';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { enqueue } from './job-type';
import { PermanentJobError } from './permanent-job.error';
import { ProcessJob } from './process-job.decorator';
import { QueueModule } from './queue.module';
import { QueueWorker } from './queue-worker';
import { WorkerRuntime } from './worker-runtime.service';

const QUEUE = `test-tracing-${randomUUID()}`;

class TracedJob {
  static readonly queue = QUEUE;
  static readonly retry = { attempts: 1 };
  constructor(readonly label: string) {}
}

@Injectable()
class TracedWorker extends QueueWorker {
  constructor(@InjectQueue(QUEUE) queue: Queue, runtime: WorkerRuntime) {
    super(queue, runtime);
  }

  @ProcessJob(TracedJob)
  async run(job: Job<TracedJob>) {
    if (job.data.label === 'refuse') throw new PermanentJobError('the job cannot be done');
    return job.data.label;
  }
}

/**
 * Producer and worker in one process with the SDK started as an app with tracing starts it,
 * exporting over OTLP/JSON to a receiver in the test (each test file runs in a process of its own).
 */
describe('a job continues the trace that queued it', () => {
  let collector: OtlpReceiver;
  let sdk: NodeSDK;
  let moduleRef: TestingModule;
  let queue: Queue;
  const tracer = trace.getTracer('test');

  beforeAll(async () => {
    collector = await startOtlpReceiver();
    Object.assign(process.env, { OTEL_EXPORTER_OTLP_ENDPOINT: collector.url, OTEL_EXPORTER_OTLP_PROTOCOL: 'http/json', OTEL_BSP_SCHEDULE_DELAY: '50' });
    sdk = new NodeSDK({ serviceName: 'queue-test', metricReaders: [], logRecordProcessors: [] });
    sdk.start();
    moduleRef = await Test.createTestingModule({
      imports: [HealthModule, QueueModule.forRoot({ redisUrl: testEnv.redisUrl, concurrency: 2 }), QueueModule.registerQueue(QUEUE)],
      providers: [TracedWorker],
    }).compile();
    moduleRef.useLogger(false);
    await moduleRef.init();
    queue = moduleRef.get<Queue>(getQueueToken(QUEUE));
  });
  afterAll(async () => {
    await queue?.obliterate({ force: true });
    await moduleRef?.close();
    await sdk?.shutdown();
    await collector?.stop();
  });

  const settled = (job: Job) => pollUntil(() => queue.getJob(job.id), (found) => Boolean(found?.finishedOn), { what: `job ${job.id} settled` });
  const spanOf = (job: Job) => pollUntil(() => collector.spans.find((span) => span.attributes['messaging.message.id'] === String(job.id)), Boolean, { what: `the span of job ${job.id}` });

  it('carries the W3C trace context of the active span in the job data, and runs the job in a child span', async () => {
    const { job, submit } = await tracer.startActiveSpan('submit', async (span) => {
      const queued = await enqueue(queue, new TracedJob('done'));
      span.end();
      return { job: queued, submit: span.spanContext() };
    });
    expect(job.data).toEqual({ label: 'done', traceparent: `00-${submit.traceId}-${submit.spanId}-01` });
    await settled(job);
    expect(await spanOf(job)).toMatchObject({
      service: 'queue-test',
      name: `process ${QUEUE}`,
      // OTLP's consumer kind.
      kind: 5,
      traceId: submit.traceId,
      parentSpanId: submit.spanId,
      attributes: { 'messaging.system': 'bull', 'messaging.destination.name': QUEUE, 'bull.job.name': 'TracedJob', 'bull.job.attempt': 1 },
      status: { code: 0 },
    });
  });

  it('marks the span of a failed attempt as an error', async () => {
    const job = await tracer.startActiveSpan('submit', async (span) => {
      const queued = await enqueue(queue, new TracedJob('refuse'));
      span.end();
      return queued;
    });
    await settled(job);
    expect(await spanOf(job)).toMatchObject({ status: { code: 2, message: 'the job cannot be done' } });
  });

  it('adds nothing to a job queued outside any span, whose span starts a trace of its own', async () => {
    const job = await enqueue(queue, new TracedJob('alone'));
    expect(job.data).toEqual({ label: 'alone' });
    await settled(job);
    expect((await spanOf(job))!.parentSpanId).toBeUndefined();
  });
});
