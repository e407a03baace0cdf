import { Test, TestingModule } from '@nestjs/testing';
import { DatabaseModule, translationDomain } from '@platform/database';
import { QueueModule } from '@platform/queue';
import { DatabaseConfig, HealthModule, loadConfig, MetricsRegistry } from '@platform/service-kit';
import { pollUntil, testAppEnv, testEnv } from '@platform/testing';
import Bull from 'bull';
import { randomUUID } from 'node:crypto';
import { DataSource, In } from 'typeorm';
import { afterAll, afterEach, beforeAll, describe, expect, it } from 'vitest';
import { OutboxMessage } from './outbox-message.entity';
import { OutboxModule } from './outbox.module';
import { OutboxService } from './outbox.service';

const DEAD_REDIS = 'redis://127.0.0.1:1';
const opened: TestingModule[] = [];
const queueNames: string[] = [];

/** An app with the translation database and, unless `relayOn` is null, a relay for `queue`. */
async function startApp(queue: string, relayOn: string | null = testEnv.redisUrl) {
  const moduleRef = await Test.createTestingModule({
    imports: [
      HealthModule,
      DatabaseModule.forRoot(loadConfig(DatabaseConfig, testAppEnv({ DATABASE_POOL_SIZE: '2' })), translationDomain),
      OutboxModule,
      ...(relayOn ? [QueueModule.forRoot({ redisUrl: relayOn }), QueueModule.registerQueue(queue), OutboxModule.forRelay([queue], { intervalMs: 100 })] : []),
    ],
  }).compile();
  moduleRef.useLogger(false);
  await moduleRef.init();
  opened.push(moduleRef);
  return { dataSource: moduleRef.get(DataSource), outbox: moduleRef.get(OutboxService), metrics: moduleRef.get(MetricsRegistry) };
}

/** The value of `name` for `queue` in the app's exposition, as Prometheus would scrape it. */
async function sampleOf(metrics: MetricsRegistry, name: string, queue: string): Promise<number | undefined> {
  const line = (await metrics.registry.metrics()).split('\n').find((l) => l.startsWith(`${name}{queue="${queue}"} `));
  return line === undefined ? undefined : Number(line.split(' ')[1]);
}

function uniqueQueue(): string {
  const name = `test-outbox-${randomUUID()}`;
  queueNames.push(name);
  return name;
}

const rowsOf = (dataSource: DataSource, queue: string) => dataSource.getRepository(OutboxMessage).find({ where: { queue }, order: { id: 'ASC' } });

async function jobsOn(queue: string) {
  const bull = new Bull(queue, testEnv.redisUrl);
  try {
    const jobs = await bull.getJobs(['waiting', 'active', 'delayed', 'completed', 'failed']);
    return jobs.map((job) => ({ id: String(job.id), name: job.name, data: job.data, attempts: job.opts.attempts }));
  } finally {
    await bull.close();
  }
}

let writer: Awaited<ReturnType<typeof startApp>>;

beforeAll(async () => {
  writer = await startApp('unused', null);
});

afterEach(async () => {
  await Promise.all(opened.splice(1).map((m) => m.close()));
  await writer.dataSource.getRepository(OutboxMessage).delete({ queue: In(queueNames) });
  for (const name of queueNames.splice(0)) {
    const bull = new Bull(name, testEnv.redisUrl);
    await bull.obliterate({ force: true });
    await bull.close();
  }
});

afterAll(() => Promise.all(opened.splice(0).map((m) => m.close())));

describe('outbox', () => {
  it('enqueues each committed row exactly once while two relays share the table', async () => {
    const queue = uniqueQueue();
    await startApp(queue);
    await startApp(queue);

    await Promise.all(
      Array.from({ length: 30 }, (_, n) => writer.dataSource.transaction((manager) => writer.outbox.add(manager, { queue, jobName: 'ExampleJob', payload: { n } }))),
    );

    const rows = await pollUntil(
      () => rowsOf(writer.dataSource, queue),
      (r) => r.length === 30 && r.every((row) => row.dispatchedAt),
      { what: 'all rows dispatched' },
    );
    const jobs = await jobsOn(queue);
    expect(jobs).toHaveLength(30);
    expect(new Set(jobs.map((job) => job.id))).toEqual(new Set(rows.map((row) => `outbox:${row.id}`)));
    expect(jobs.map((job) => job.data.n).sort((a, b) => a - b)).toEqual(Array.from({ length: 30 }, (_, n) => n));
    expect(rows.every((row) => row.attempts === 0)).toBe(true);
  });

  it('enqueues a job class with its Bull id and retry policy', async () => {
    const queue = uniqueQueue();
    class ExampleJob {
      static readonly queue = queue;
      static readonly retry = { attempts: 7 };
      constructor(readonly batchId: string) {}
    }
    await startApp(queue);

    await writer.dataSource.transaction((manager) => writer.outbox.enqueue(manager, new ExampleJob('job_1'), { jobId: 'example:job_1' }));

    const jobs = await pollUntil(() => jobsOn(queue), (j) => j.length === 1, { what: 'the job on its queue' });
    expect(jobs).toEqual([{ id: 'example:job_1', name: 'ExampleJob', data: { batchId: 'job_1' }, attempts: 7 }]);
  });

  it('enqueues nothing for a rolled-back transaction', async () => {
    const queue = uniqueQueue();
    await startApp(queue);

    await expect(
      writer.dataSource.transaction(async (manager) => {
        await writer.outbox.add(manager, { queue, jobName: 'ExampleJob', payload: { kept: false } });
        throw new Error('the caller changed its mind');
      }),
    ).rejects.toThrow('the caller changed its mind');
    // A row committed afterwards is relayed; once it is, the rolled-back one would have been too.
    await writer.dataSource.transaction((manager) => writer.outbox.add(manager, { queue, jobName: 'ExampleJob', payload: { kept: true } }));

    await pollUntil(() => rowsOf(writer.dataSource, queue), (r) => r.length === 1 && r[0].dispatchedAt !== null, { what: 'the committed row dispatched' });
    expect((await jobsOn(queue)).map((job) => job.data)).toEqual([{ kept: true }]);
  });

  it('keeps rows while Redis is unreachable and enqueues them once a relay reaches it', async () => {
    const queue = uniqueQueue();
    await startApp(queue, DEAD_REDIS);

    await writer.dataSource.transaction((manager) => writer.outbox.add(manager, { queue, jobName: 'ExampleJob', payload: { survived: true } }));
    // Several poll intervals of the relay that cannot reach Redis.
    await new Promise((resolve) => setTimeout(resolve, 1000));
    expect((await rowsOf(writer.dataSource, queue)).map((row) => row.dispatchedAt)).toEqual([null]);

    await startApp(queue);
    await pollUntil(() => rowsOf(writer.dataSource, queue), (r) => r[0].dispatchedAt !== null, { what: 'the row dispatched' });
    expect((await jobsOn(queue)).map((job) => job.data)).toEqual([{ survived: true }]);
  });

  it('exports the jobs waiting in the outbox for want of a relay and how long the oldest has waited, until a relay takes them', async () => {
    const queue = uniqueQueue();
    // The queues that use the outbox are exported before any of their jobs waits.
    expect(await sampleOf(writer.metrics, 'outbox_pending_jobs', 'translation-batches')).toBeGreaterThanOrEqual(0);
    expect(await sampleOf(writer.metrics, 'outbox_pending_jobs', queue)).toBeUndefined();

    for (let n = 0; n < 3; n++) await writer.dataSource.transaction((manager) => writer.outbox.add(manager, { queue, jobName: 'ExampleJob', payload: { n } }));
    await writer.dataSource.query(`UPDATE translation.outbox SET created_at = now() - interval '90 seconds' WHERE queue = $1 AND payload->>'n' = '0'`, [queue]);

    expect(await sampleOf(writer.metrics, 'outbox_pending_jobs', queue)).toBe(3);
    const age = await sampleOf(writer.metrics, 'outbox_oldest_pending_job_age_seconds', queue);
    expect(age).toBeGreaterThanOrEqual(90);
    expect(age).toBeLessThan(120);

    await startApp(queue);
    await pollUntil(() => sampleOf(writer.metrics, 'outbox_pending_jobs', queue), (pending) => pending === undefined, { what: 'the relayed jobs gone from the gauge' });
    expect(await sampleOf(writer.metrics, 'outbox_oldest_pending_job_age_seconds', queue)).toBeUndefined();
  });

  it('exports no sample while Postgres does not answer, rather than a backlog of 0', async () => {
    const app = await startApp('unused', null);
    await app.dataSource.destroy();
    expect(await sampleOf(app.metrics, 'outbox_pending_jobs', 'translation-batches')).toBeUndefined();
    expect(await sampleOf(app.metrics, 'outbox_oldest_pending_job_age_seconds', 'translation-batches')).toBeUndefined();
  });
});
