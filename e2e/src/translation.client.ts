import { http, pollUntil, type HttpResult } from '@platform/testing';
import { expect } from 'vitest';
import { stack } from './stack.config';

/** English that Apertium turns into Spanish with "gato" and "sofá" in it. */
export const SENTENCE = 'The cat is sleeping on the red sofa.';
export const SENTENCE_WORDS = 8;

/** A call to the translation API's `/api/v1` with a key (or reviewer token). */
export function translationApi(method: string, path: string, key: string, options: { json?: unknown; body?: string; headers?: Record<string, string> } = {}): Promise<HttpResult> {
  return http(stack.translateUrl, method, `/api/v1${path}`, { token: key, ...options });
}

/** The job once it has finished; fails the test when it failed or is still running after the job timeout. */
export async function finishedJob(key: string, job: string) {
  const res = await pollUntil(
    () => translationApi('GET', `/batches/${job}`, key),
    (r) => r.status !== 200 || r.body.status !== 'processing',
    { timeoutMs: stack.jobTimeoutMs, intervalMs: 250, what: `job ${job} to finish` },
  );
  expect(res.status).toBe(200);
  expect(res.body.status).toBe('done');
  return res.body;
}

/** 202 with a new job, as batches and tier review answer. */
export function expectAcceptedJob(res: HttpResult): string {
  expect(res.status).toBe(202);
  expect(res.body).toEqual({ ok: true, job: expect.stringMatching(/^job_[A-Za-z0-9]{24}$/), status: 'processing' });
  return res.body.job;
}
