import type { NestFastifyApplication } from '@nestjs/platform-fastify';
import { ApiKeyService } from '@platform/auth';
import { BatchJob, BatchText, newBatchJobId, type BatchStatus } from '@platform/batches';
import type { ApiKeyPrincipal } from '@platform/contracts';
import type { TranslationTier } from '@platform/translation-pipeline';
import { DataSource } from 'typeorm';
import type { TestAccount } from './console-browser.testing';

/** A key the owner creates in the console, as the public API would see it authenticated. */
export async function keyOf(app: NestFastifyApplication, account: TestAccount, body: Record<string, unknown> = { sandbox: true }): Promise<ApiKeyPrincipal> {
  const created = await account.owner.call('POST', '/keys', { name: 'test key', ...body });
  if (created.status !== 201) throw new Error(`creating a key: ${created.status} ${created.text}`);
  return (await app.get(ApiKeyService).authenticate(created.body.secret))!;
}

export interface JobSpec {
  /** Source texts; each translated into `translation(text)` when the job is done. */
  texts: string[];
  status?: BatchStatus;
  tier?: TranslationTier;
  error?: string;
}

/** A job of the key's account and mode as batch-worker leaves it: its texts translated once done. */
export async function insertJob(app: NestFastifyApplication, key: ApiKeyPrincipal, { texts, status = 'done', tier = 'basic', error }: JobSpec): Promise<string> {
  const id = newBatchJobId();
  const done = status === 'done';
  const data = app.get(DataSource);
  await data.getRepository(BatchJob).insert({
    id,
    accountId: key.accountId,
    keyId: key.keyId,
    sandbox: key.sandbox,
    status,
    source: 'en',
    target: 'es',
    format: 'text',
    tier,
    total: texts.length,
    doneCount: done ? texts.length : 0,
    words: 2 * texts.length,
    costCents: 1,
    error: error ?? null,
    completedAt: status === 'processing' ? null : new Date(),
  });
  await data.getRepository(BatchText).insert(texts.map((text, idx) => ({ jobId: id, idx, text, words: 2, detectedSource: 'en', translation: done ? translation(text) : null })));
  return id;
}

export const translation = (text: string) => `es:${text}`;
