import type { Provider } from '@nestjs/common';
import { Test, TestingModule } from '@nestjs/testing';
import { TypeOrmModule } from '@nestjs/typeorm';
import { DatabaseModule, translationDomain } from '@platform/database';
import { OutboxModule } from '@platform/outbox';
import { QuotaModule, WordQuotaService } from '@platform/quota';
import { DatabaseConfig, HealthModule, loadConfig } from '@platform/service-kit';
import { createTestKey, testAppEnv, testPrincipal } from '@platform/testing';
import { WebhooksModule } from '@platform/webhooks';
import { DataSource } from 'typeorm';
import { newBatchJobId } from './batch-id';
import { BatchJob } from './batch-job.entity';
import { chargeReference } from './batch-progress.service';
import { BatchText } from './batch-text.entity';

/** The batches lib's services on the test database, as a worker wires them. */
export async function batchesTestingModule(providers: Provider[]): Promise<TestingModule> {
  const moduleRef = await Test.createTestingModule({
    imports: [
      HealthModule,
      DatabaseModule.forRoot(loadConfig(DatabaseConfig, testAppEnv({ DATABASE_POOL_SIZE: '2' })), translationDomain),
      QuotaModule.forRoot({ sandboxMonthlyWords: 50_000 }),
      TypeOrmModule.forFeature([BatchJob, BatchText]),
      WebhooksModule,
      OutboxModule,
    ],
    providers,
  }).compile();
  moduleRef.useLogger(false);
  await moduleRef.init();
  return moduleRef;
}

export interface JobFixture {
  /** Two-word texts of the job, each with its translation once translated. */
  texts: { text: string; translation?: string }[];
  tier?: BatchJob['tier'];
  progressAt?: Date;
}

/** A processing job of a new test key, charged two words a text, as BatchService leaves it. */
export async function insertChargedJob(moduleRef: TestingModule, { texts, tier = 'basic', progressAt }: JobFixture) {
  const dataSource = moduleRef.get(DataSource);
  const key = await createTestKey();
  const id = newBatchJobId();
  const words = 2 * texts.length;
  await moduleRef.get(WordQuotaService).charge({ key: testPrincipal(key), words, costCents: 1, reference: chargeReference(id) });
  await dataSource.getRepository(BatchJob).insert({
    id,
    accountId: key.accountId,
    keyId: key.keyId,
    sandbox: key.sandbox,
    status: 'processing',
    source: 'en',
    target: 'es',
    format: 'text',
    tier,
    total: texts.length,
    doneCount: texts.filter((t) => t.translation !== undefined).length,
    words,
    costCents: 1,
    ...(progressAt && { progressAt }),
  });
  await dataSource
    .getRepository(BatchText)
    .insert(texts.map(({ text, translation }, idx) => ({ jobId: id, idx, text, words: 2, detectedSource: 'en', translation: translation ?? null })));
  return { id, key };
}
