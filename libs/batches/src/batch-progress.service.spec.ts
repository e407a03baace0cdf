import type { TestingModule } from '@nestjs/testing';
import { WordQuotaService } from '@platform/quota';
import { DataSource } from 'typeorm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { batchesTestingModule, insertChargedJob } from './batch-fixtures.testing';
import { BatchJob } from './batch-job.entity';
import { BatchProgress } from './batch-progress.service';
import { BatchText } from './batch-text.entity';

const DAY_MS = 24 * 3600_000;

describe('BatchProgress', () => {
  let moduleRef: TestingModule;
  let progress: BatchProgress;
  let quota: WordQuotaService;
  let dataSource: DataSource;

  beforeAll(async () => {
    moduleRef = await batchesTestingModule([BatchProgress]);
    progress = moduleRef.get(BatchProgress);
    quota = moduleRef.get(WordQuotaService);
    dataSource = moduleRef.get(DataSource);
  });
  afterAll(() => moduleRef.close());

  /** A charged job of three two-word texts, as BatchService leaves it. */
  const chargedJob = () => insertChargedJob(moduleRef, { texts: [{ text: 'Good morning' }, { text: 'Good night' }, { text: 'Thank you' }] });

  const job = (id: string) => dataSource.getRepository(BatchJob).findOneByOrFail({ id });

  it('stores each translation once and counts it once, however often a chunk is recorded', async () => {
    const { id } = await chargedJob();
    await progress.record(id, [
      { idx: 0, translation: 'Buenos días' },
      { idx: 1, translation: 'Buenas noches' },
    ]);
    // The same chunk again, as after a worker died between storing it and going on.
    await progress.record(id, [
      { idx: 0, translation: 'other' },
      { idx: 1, translation: 'other' },
    ]);

    expect((await job(id)).doneCount).toBe(2);
    expect((await progress.pending(id, 50)).map((text) => text.idx)).toEqual([2]);
    const stored = await dataSource.getRepository(BatchText).find({ where: { jobId: id }, order: { idx: 'ASC' } });
    expect(stored.map((text) => text.translation)).toEqual(['Buenos días', 'Buenas noches', null]);
  });

  it('completes a job only once every text is translated, and only once', async () => {
    const { id } = await chargedJob();
    await progress.record(id, [{ idx: 0, translation: 'Buenos días' }]);
    expect(await progress.complete(id)).toBe(false);
    expect((await job(id)).status).toBe('processing');

    await progress.record(id, [
      { idx: 1, translation: 'Buenas noches' },
      { idx: 2, translation: 'Gracias' },
    ]);
    expect(await progress.complete(id)).toBe(true);
    expect(await progress.complete(id)).toBe(false);
    expect(await progress.fail(id, 'too late')).toBe(false);

    const done = await job(id);
    expect(done).toMatchObject({ status: 'done', doneCount: 3, error: null });
    expect(done.expiresAt!.getTime() - done.completedAt!.getTime()).toBe(30 * DAY_MS);
  });

  it('fails a job once, refunding its words in the same step', async () => {
    const { id, key } = await chargedJob();
    expect(await quota.usage(key.keyId)).toMatchObject({ words: 6, costCents: 1 });

    expect(await progress.fail(id, 'The translation engine kept failing; the words were refunded')).toBe(true);
    expect(await progress.fail(id, 'again')).toBe(false);
    expect(await progress.complete(id)).toBe(false);

    expect(await quota.usage(key.keyId)).toMatchObject({ words: 0, costCents: 0 });
    expect(await job(id)).toMatchObject({ status: 'failed', error: 'The translation engine kept failing; the words were refunded' });
  });

  it('deletes finished jobs past their expiry with their texts, and keeps the others', async () => {
    const expired = await chargedJob();
    const fresh = await chargedJob();
    for (const { id } of [expired, fresh]) await progress.fail(id, 'failed');
    await dataSource.getRepository(BatchJob).update({ id: expired.id }, { expiresAt: new Date(Date.now() - 1000) });

    expect(await progress.deleteExpired()).toBeGreaterThanOrEqual(1);
    expect(await progress.find(expired.id)).toBeNull();
    expect(await dataSource.getRepository(BatchText).countBy({ jobId: expired.id })).toBe(0);
    expect(await progress.find(fresh.id)).not.toBeNull();
  });
});
