import type { NestFastifyApplication } from '@nestjs/platform-fastify';
import { newBatchJobId } from '@platform/batches';
import { loadConfig } from '@platform/service-kit';
import { http, testAppEnv, type TestKey } from '@platform/testing';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { TranslateApiConfig } from '../config/translate-api.config';
import { serveTranslateApi } from '../translate-api.app';
import { batchAccounts } from './batch-accounts.testing';

const { createTestKey, deleteJobs, sql } = batchAccounts();

describe('GET /api/v1/batches', () => {
  let app: NestFastifyApplication;
  let url: string;

  beforeAll(async () => {
    app = await serveTranslateApi(loadConfig(TranslateApiConfig, testAppEnv({ RATE_LIMIT_PER_MINUTE: '1000' })));
    url = await app.getUrl();
  });
  afterAll(async () => {
    await app.close();
    await deleteJobs();
  });

  const submit = async (key: TestKey, text = 'Good morning.'): Promise<string> => {
    const res = await http(url, 'POST', '/api/v1/batches', { token: key.plainKey, json: { target: 'es', source: 'en', texts: [text] } });
    expect(res.status).toBe(202);
    return res.body.job;
  };
  const list = (key: TestKey, query = '') => http(url, 'GET', `/api/v1/batches${query && `?${query}`}`, { token: key.plainKey });
  const ids = (res: { body: { batches: { id: string }[] } }) => res.body.batches.map((batch) => batch.id);

  it("pages through the account's jobs of the key's mode newest first, unshaken by jobs submitted in between", async () => {
    const key = await createTestKey();
    const sibling = await createTestKey({ accountId: key.accountId });
    const submitted: string[] = [];
    for (let i = 0; i < 7; i++) submitted.push(await submit(i % 3 === 2 ? sibling : key));
    // Neither the account's live world nor another account shows up.
    await submit(await createTestKey({ accountId: key.accountId, sandbox: false }));
    await submit(await createTestKey());
    const newestFirst = [...submitted].reverse();

    const first = await list(key, 'limit=3');
    expect(first.status).toBe(200);
    expect(ids(first)).toEqual(newestFirst.slice(0, 3));
    const later = [await submit(key), await submit(sibling)];

    const second = await list(key, `limit=3&cursor=${first.body.next_cursor}`);
    expect(ids(second)).toEqual(newestFirst.slice(3, 6));
    later.push(await submit(key));

    const third = await list(sibling, `limit=3&cursor=${second.body.next_cursor}`);
    expect(ids(third)).toEqual(newestFirst.slice(6));
    expect(third.body.next_cursor).toBeNull();

    expect(ids(await list(key, 'limit=3'))).toEqual([...later].reverse());
  });

  it('shows each job without its texts or results', async () => {
    const key = await createTestKey({ sandbox: false });
    const job = await submit(key, 'The cat is sleeping on the red sofa.');
    const res = await list(key);
    expect(res.body).toEqual({
      ok: true,
      batches: [
        {
          id: job,
          status: expect.stringMatching(/^(processing|done)$/),
          progress: { done: expect.any(Number), total: 1 },
          target: 'es',
          tier: 'basic',
          format: 'text',
          words: 8,
          cost_cents: 1,
          created_at: expect.stringMatching(/^\d{4}-\d{2}-\d{2}T\d{2}:\d{2}:\d{2}\.\d{3}Z$/),
          completed_at: null,
        },
      ],
      next_cursor: null,
    });
  });

  it('orders jobs of the same moment by id and tells moments a microsecond apart, 20 to a page by default', async () => {
    const key = await createTestKey({ sandbox: false });
    const insert = async (count: number, createdAt: string) => {
      const jobs = Array.from({ length: count }, () => newBatchJobId());
      await sql(
        `INSERT INTO translation.batch_jobs (id, account_id, key_id, status, target, format, tier, sandbox, total, done_count, words, cost_cents, created_at, completed_at, expires_at)
         SELECT id, $2, $3, 'done', 'de', 'html', 'pro', false, 2, 2, 10, 1, $4, $4::timestamptz + interval '1 minute', now() + interval '30 days' FROM unnest($1::text[]) AS id`,
        [jobs, key.accountId, key.keyId, createdAt],
      );
      return jobs.sort().reverse();
    };
    const earlier = await insert(21, '2026-01-05T10:00:00.123456Z');
    const later = await insert(4, '2026-01-05T10:00:00.123457Z');

    const first = await list(key);
    expect(ids(first)).toEqual([...later, ...earlier.slice(0, 16)]);
    expect(first.body.batches[0]).toMatchObject({ format: 'html', tier: 'pro', completed_at: '2026-01-05T10:01:00.123Z', progress: { done: 2, total: 2 } });
    const second = await list(key, `cursor=${first.body.next_cursor}`);
    expect(ids(second)).toEqual(earlier.slice(16));
    expect(second.body.next_cursor).toBeNull();
  });

  const cursor = (value: unknown) => Buffer.from(JSON.stringify(value)).toString('base64url');
  it.each([
    ['cursor=not%20a%20cursor', /^cursor: not a cursor of this list/],
    [`cursor=${cursor({ at: '2026-01-05T10:00:00.123456Z' })}`, /^cursor: /],
    [`cursor=${cursor(['2026-01-05T10:00:00.123Z', 'job_000000000000000000000000'])}`, /^cursor: /],
    [`cursor=${cursor(['2026-01-05T10:00:00.123456Z', 'job_1'])}`, /^cursor: /],
    [`cursor=${cursor(['2026-02-30T10:00:00.123456Z', 'job_000000000000000000000000'])}`, /^cursor: /],
    [`cursor=${cursor(['0000-01-01T00:00:00.000000Z', 'job_000000000000000000000000'])}`, /^cursor: /],
    ['limit=0', /limit/],
    ['limit=101', /limit/],
    ['limit=many', /limit/],
  ])('refuses %s with 422', async (query, message) => {
    const res = await list(await createTestKey(), query);
    expect(res.status).toBe(422);
    expect(res.body).toEqual({ error: 'unsupported_language', message: expect.stringMatching(message) });
  });

  it('is described in the OpenAPI document', async () => {
    const { body } = await http(url, 'GET', '/openapi.json');
    const operation = body.paths['/api/v1/batches'].get;
    expect(operation.responses['200'].content['application/json'].schema.$ref).toBe('#/components/schemas/BatchListResponseDto');
    expect(operation.parameters.map((p: { name: string }) => p.name)).toEqual(['limit', 'cursor']);
    expect(body.components.schemas.BatchSummaryDto.required).toEqual(
      expect.arrayContaining(['id', 'status', 'progress', 'target', 'tier', 'format', 'words', 'cost_cents', 'created_at', 'completed_at']),
    );
  });
});
