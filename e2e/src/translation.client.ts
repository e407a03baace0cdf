import { createTranslationClient, isTranslated, type TranslateResponse, type TranslationClient, type TranslationPaths } from '@platform/api-client';
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

/** The translation API with its generated types (libs/api-client): a changed contract fails the typecheck here. */
export const translationClient = (key: string): TranslationClient => createTranslationClient({ baseUrl: stack.translateUrl, apiKey: key });

export type TranslateRequest = TranslationPaths['/api/v1/translate']['post']['requestBody']['content']['application/json'];

/** POST /translate through the typed client. */
export function translate(key: string, body: TranslateRequest, headers?: Record<string, string>) {
  return translationClient(key).POST('/api/v1/translate', { body, headers });
}

/** The translations of a 200 answer (tier review answers 202 with a job instead). */
export function translated(res: Awaited<ReturnType<typeof translate>>): TranslateResponse {
  expect(res.response.status).toBe(200);
  if (!res.data || !isTranslated(res.data)) throw new Error(`expected translations, got ${JSON.stringify(res.data ?? res.error)}`);
  return res.data;
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

/** 202 with a new job, as batches and tier review answer (through the typed client or not). */
export function expectAcceptedJob(res: HttpResult | { response: Response; data?: unknown }): string {
  const [status, body] = 'response' in res ? [res.response.status, res.data] : [res.status, res.body];
  expect(status).toBe(202);
  expect(body).toEqual({ ok: true, job: expect.stringMatching(/^job_[A-Za-z0-9]{24}$/), status: 'processing' });
  return (body as { job: string }).job;
}
