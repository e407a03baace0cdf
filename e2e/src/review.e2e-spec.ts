import { pollUntil } from '@platform/testing';
import { describe, expect, inject, it } from 'vitest';
import { stack } from './stack.config';
import { expectAcceptedJob, finishedJob, SENTENCE, translate, translationApi } from './translation.client';

const { liveKey, reviewerToken } = inject('credentials');

const EDITED = 'El gato duerme en el sofá rojo.';

describe('translate-api: review by a native speaker', () => {
  let job: string;
  let task: { id: string };

  it("hands a live job's sampled text to a reviewer of its language", async () => {
    job = expectAcceptedJob(await translate(liveKey, { source: 'en', target: 'es', tier: 'review', texts: [SENTENCE] }));
    // The reviewer is the account's own, so its next task is this job's once batch-worker has sampled it.
    const claimed = await pollUntil(
      () => translationApi('GET', '/review/tasks/next?lang=es', reviewerToken),
      (res) => res.status !== 200 || res.body.task !== null,
      { timeoutMs: stack.jobTimeoutMs, intervalMs: 250, what: `the review task of ${job}` },
    );
    expect(claimed.status).toBe(200);
    task = claimed.body.task;
    expect(task).toEqual({
      id: expect.any(String),
      job,
      index: 0,
      source_language: 'en',
      target: 'es',
      source_text: SENTENCE,
      machine_translation: expect.stringContaining('gato'),
      lease_until: expect.any(String),
    });
    const pending = await translationApi('GET', `/batches/${job}`, liveKey);
    expect(pending.body).toMatchObject({ status: 'processing', progress: { done: 1, total: 1 } });
  });

  it('refuses a language the reviewer does not hold', async () => {
    const res = await translationApi('GET', '/review/tasks/next?lang=fr', reviewerToken);
    expect(res.status).toBe(403);
    expect(res.body).toMatchObject({ error: 'forbidden' });
  });

  it("completes the job with the reviewer's edit", async () => {
    const res = await translationApi('POST', `/review/tasks/${task.id}`, reviewerToken, { json: { verdict: 'edit', translation: EDITED } });
    expect(res.status).toBe(200);
    expect(res.body).toEqual({ ok: true, task: task.id, status: 'edited' });
    const done = await finishedJob(liveKey, job);
    expect(done).toMatchObject({ tier: 'review', results: [{ index: 0, translation: EDITED }] });

    const again = await translationApi('POST', `/review/tasks/${task.id}`, reviewerToken, { json: { verdict: 'approve' } });
    expect(again.status).toBe(409);
    expect(again.body).toMatchObject({ error: 'already_answered' });
  });
});
