import type { INestApplicationContext } from '@nestjs/common';
import { BatchJob, BatchText, newBatchJobId } from '@platform/batches';
import type { AppliedStyleProfile } from '@platform/style-profiles';
import type { GlossaryTerms } from '@platform/translation-pipeline';
import { DataSource } from 'typeorm';
import { ReviewTasks } from './review-tasks.service';

export interface JobInReview {
  /** The key that submitted the job: its account and mode are the job's. */
  key: { accountId: string; keyId: string; sandbox: boolean };
  target: string;
  source: string;
  /** Its machine translation, as batch-worker stored it. */
  translation: string;
  /** Whether the platform's reviewers may review it, as recorded at submission. */
  reviewPool?: boolean;
  glossary?: GlossaryTerms;
  /** The style profile as it was at submission. */
  styleProfile?: AppliedStyleProfile;
  /** The texts' format; `text` unless given. */
  format?: 'text' | 'json';
}

/**
 * A review-tier job of one text, translated and sampled as batch-worker leaves it: its one task
 * waits for a reviewer. For tests of who may review what, which need jobs of chosen accounts,
 * modes and languages without running the engine.
 */
export async function insertJobInReview(app: Pick<INestApplicationContext, 'get'>, job: JobInReview): Promise<string> {
  const dataSource = app.get(DataSource);
  const entity = dataSource.getRepository(BatchJob).create({
    id: newBatchJobId(),
    accountId: job.key.accountId,
    keyId: job.key.keyId,
    sandbox: job.key.sandbox,
    reviewPool: job.reviewPool ?? false,
    status: 'processing',
    source: 'en',
    target: job.target,
    format: job.format ?? 'text',
    tier: 'review',
    glossary: job.glossary ?? null,
    styleProfile: job.styleProfile ?? null,
    total: 1,
    doneCount: 1,
    words: 6,
    costCents: 1,
  });
  await dataSource.transaction(async (manager) => {
    await manager.save(entity);
    await manager.insert(BatchText, { jobId: entity.id, idx: 0, text: job.source, translation: job.translation, words: 6, detectedSource: 'en' });
    await app.get(ReviewTasks).sample(manager, entity);
  });
  return entity.id;
}
