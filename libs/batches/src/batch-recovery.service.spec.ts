import type { TestingModule } from '@nestjs/testing';
import { OutboxMessage } from '@platform/outbox';
import { WordQuotaService } from '@platform/quota';
import { DataSource } from 'typeorm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { batchesTestingModule, insertChargedJob } from './batch-fixtures.testing';
import { BatchJob } from './batch-job.entity';
import { BatchProgress, chargeReference } from './batch-progress.service';
import { BatchRecovery, STUCK_REASON, UNPROCESSABLE_REASON, type RecoveryPolicy } from './batch-recovery.service';
import { batchQueueJobId } from './translate-batch.job';

/** Fixtures are this still, so that expiring them never touches other test files' jobs in the shared database. */
const A_YEAR_MS = 365 * 24 * 3600_000;

describe('BatchRecovery', () => {
  let moduleRef: TestingModule;
  let recovery: BatchRecovery;
  let quota: WordQuotaService;
  let dataSource: DataSource;

  beforeAll(async () => {
    moduleRef = await batchesTestingModule([BatchProgress, BatchRecovery]);
    recovery = moduleRef.get(BatchRecovery);
    quota = moduleRef.get(WordQuotaService);
    dataSource = moduleRef.get(DataSource);
  });
  afterAll(() => moduleRef.close());

  /** A charged, processing job of one two-word text, still for a year, with no outbox row waiting. */
  const stillJob = ({ tier = 'basic', done = false }: { tier?: BatchJob['tier']; done?: boolean } = {}) =>
    insertChargedJob(moduleRef, { texts: [{ text: 'Good morning', translation: done ? 'Buenos días' : undefined }], tier, progressAt: new Date(Date.now() - A_YEAR_MS) });

  const job = (id: string) => dataSource.getRepository(BatchJob).findOneByOrFail({ id });
  const outbox = (id: string) => dataSource.getRepository(OutboxMessage).find({ where: { payload: { jobId: id } as object }, order: { id: 'ASC' } });
  /** A queue that holds exactly the given Bull job ids, recording what was asked. */
  const queueHolding = (...held: string[]) => {
    const asked: string[] = [];
    const policy: RecoveryPolicy = { quietMs: 30_000, maxRecoveries: 2, isQueued: async (id) => (asked.push(id), held.includes(id)) };
    return { policy, asked };
  };

  it('queues a still job again under its next Bull id when the queue no longer holds its current one', async () => {
    const { id } = await stillJob();
    const { policy, asked } = queueHolding();

    expect(await recovery.still(30_000)).toContain(id);
    expect(await recovery.recover(id, policy)).toBe('queued');
    expect(asked).toEqual([batchQueueJobId(id, 0)]);
    expect(await job(id)).toMatchObject({ status: 'processing', requeues: 1, recoveries: 1 });
    expect((await outbox(id)).map((row) => [row.jobId, row.dispatchedAt])).toEqual([[batchQueueJobId(id, 1), null]]);

    // It just moved, and its row waits in the outbox: nothing more to do.
    expect(await recovery.still(0)).not.toContain(id);
    expect(await recovery.recover(id, { ...policy, quietMs: 0 })).toBeNull();
  });

  it('leaves a job alone whose Bull job the queue still holds, and one that moved lately', async () => {
    const held = await stillJob();
    expect(await recovery.recover(held.id, queueHolding(batchQueueJobId(held.id, 0)).policy)).toBeNull();

    const moving = await stillJob();
    await dataSource.getRepository(BatchJob).update({ id: moving.id }, { progressAt: new Date() });
    const { policy, asked } = queueHolding();
    expect(await recovery.recover(moving.id, policy)).toBeNull();
    expect(asked).toEqual([]);
    for (const { id } of [held, moving]) expect(await job(id)).toMatchObject({ status: 'processing', requeues: 0, recoveries: 0 });
  });

  it('fails a job that lost its queue entry more often than allowed, refunding it once', async () => {
    const { id, key } = await stillJob();
    await dataSource.getRepository(BatchJob).update({ id }, { recoveries: 2, requeues: 3 });
    const { policy, asked } = queueHolding();

    expect(await recovery.recover(id, policy)).toBe('failed');
    expect(asked).toEqual([batchQueueJobId(id, 3)]);
    expect(await job(id)).toMatchObject({ status: 'failed', error: UNPROCESSABLE_REASON });
    expect(await quota.usage(key.keyId)).toMatchObject({ words: 0, costCents: 0 });
    expect(await recovery.recover(id, { ...policy, quietMs: 0 })).toBeNull();
    expect(await quota.refund({ reference: chargeReference(id) })).toBe(false);
  });

  it('lets only one of two concurrent reconcilers act on a job', async () => {
    const { id } = await stillJob();
    const outcomes = await Promise.all([recovery.recover(id, queueHolding().policy), recovery.recover(id, queueHolding().policy)]);
    expect(outcomes.sort()).toEqual(['queued', null].sort());
    expect(await job(id)).toMatchObject({ requeues: 1, recoveries: 1 });
    expect(await outbox(id)).toHaveLength(1);
  });

  it('fails jobs still past the stuck limit whatever the queue says, but not a review job waiting for reviewers', async () => {
    const stuck = await stillJob();
    const inReview = await stillJob({ tier: 'review', done: true });
    const reviewStillTranslating = await stillJob({ tier: 'review' });

    expect(await recovery.expireStuck(A_YEAR_MS - 60_000)).toBeGreaterThanOrEqual(2);
    expect(await job(stuck.id)).toMatchObject({ status: 'failed', error: STUCK_REASON });
    expect(await job(reviewStillTranslating.id)).toMatchObject({ status: 'failed', error: STUCK_REASON });
    expect(await job(inReview.id)).toMatchObject({ status: 'processing' });
    expect(await recovery.still(0)).not.toContain(inReview.id);
    expect(await recovery.recover(inReview.id, { ...queueHolding().policy, quietMs: 0 })).toBeNull();
  });
});
