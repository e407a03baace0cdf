import { http, photoJpeg, pollUntil, postForm, type HttpResult } from '@platform/testing';
import { expect } from 'vitest';
import { stack, uniqueName, type Service } from './stack.control';

/** A numbered short English text: Apertium translates it fast and keeps the number, which shows the order. */
export const numberedText = (i: number) => `Text ${i}: the cat sleeps.`;
export const numberedTexts = (count: number) => Array.from({ length: count }, (_, i) => numberedText(i));

/**
 * What a client saw: the HTTP answer, or `status: 0` when it got none (refused, reset, timed
 * out), which no scenario accepts.
 */
export interface Answer extends HttpResult {
  at: number;
  error?: string;
}

const noAnswer = (error: unknown): Answer => ({ status: 0, headers: new Headers(), body: undefined, text: '', at: Date.now(), error: String((error as Error)?.cause ?? error) });

/** A client gives up after this: a hang is no answer. */
const CLIENT_TIMEOUT_MS = 60_000;

/** Any call that must end in an answer. */
export async function call(service: Service, method: string, path: string, options: { json?: unknown; token?: string; headers?: Record<string, string> } = {}): Promise<Answer> {
  const { urls } = await stackState();
  return http(urls[service], method, path, { ...options, signal: AbortSignal.timeout(CLIENT_TIMEOUT_MS) })
    .then((res) => ({ ...res, at: Date.now() }))
    .catch(noAnswer);
}

let cachedState: Awaited<ReturnType<typeof stack.state>> | null = null;
/** The URLs never change while the suite runs: services restart on their ports. */
async function stackState() {
  cachedState ??= await stack.state();
  return cachedState;
}

export const translate = (key: string, texts: string[]) => call('translate-api', 'POST', '/api/v1/translate', { token: key, json: { source: 'en', target: 'es', texts } });
export const submitBatch = (key: string, texts: string[]) => call('translate-api', 'POST', '/api/v1/batches', { token: key, json: { source: 'en', target: 'es', texts } });
export const getJob = (key: string, job: string) => call('translate-api', 'GET', `/api/v1/batches/${job}`, { token: key });
export const usageWords = async (key: string) => {
  const res = await call('translate-api', 'GET', '/api/v1/usage', { token: key });
  expect(res.status, res.text).toBe(200);
  return Number(res.body.words);
};

/** A live key of a new account (live keys have no test quota); `manage` for webhook endpoints. */
export async function newTranslationKey(what: string, ...flags: ('--manage' | '--sandbox')[]): Promise<string> {
  const account = uniqueName(what);
  await stack.admin('translate-api', ['account:create', account]);
  return stack.admin('translate-api', ['key:create', '--account', account, ...flags]);
}
/** A token of its own subscription, with room for any number of conversions a scenario makes. */
export const newImageToken = () => stack.admin('image-api', ['token:create', '--plan', 'business']);

/** Points the key's account's webhook endpoint at `url`; returns the signing secret. */
export async function setWebhook(manageKey: string, url: string): Promise<string> {
  const res = await call('translate-api', 'PUT', '/api/v1/webhook', { token: manageKey, json: { url } });
  expect(res.status, res.text).toBe(201);
  return res.body.secret;
}

/** The job once it is no longer `processing`; fails the test after `timeoutMs`. */
export async function settledJob(key: string, job: string, timeoutMs: number) {
  const res = await pollUntil(
    () => getJob(key, job),
    (r) => r.status === 200 && r.body.status !== 'processing',
    { timeoutMs, intervalMs: 1000, what: `job ${job} to finish` },
  );
  return res.body;
}

/** A done job's results are every text translated, in input order (each keeps its number). */
export function expectCompleteResults(job: { job: string; status: string; results?: { index: number; translation: string }[]; error?: string }, texts: string[]) {
  expect(job.status, `${job.job}: ${job.error ?? ''}`).toBe('done');
  expect(job.results).toHaveLength(texts.length);
  const misplaced = job.results!.filter((result, i) => result.index !== i || !new RegExp(`\\b${i}\\b`).test(result.translation));
  expect(misplaced.slice(0, 5), `${job.job}: results out of order or missing`).toEqual([]);
}

/** The translation API's envelope for an outage: 503 `service_unavailable` with Retry-After. */
export function isTranslationOutage(res: Answer) {
  return res.status === 503 && res.body?.error === 'service_unavailable' && typeof res.body?.message === 'string' && Number(res.headers.get('retry-after')) > 0;
}

/** The image API's envelope for an outage: 503, retrying can succeed, with Retry-After. */
export function isImageOutage(res: { status: number; headers: Headers; json?: any; body?: any }) {
  const body = res.json ?? res.body;
  return res.status === 503 && typeof body?.error_message === 'string' && body?.error_fatal_status === false && Number(res.headers.get('retry-after')) > 0;
}

/** A distinct small photo per seed, so each conversion really encodes. */
export const photo = (seed: number, width = 320, height = 240) => photoJpeg(width + (seed % 50), height + (Math.floor(seed / 50) % 50));

export async function convert(token: string, image: Buffer, format: 'webp' | 'avif' = 'webp'): Promise<Answer & { json?: any }> {
  const { urls } = await stackState();
  return postForm(urls['image-api'], '/convert', { files: [['file', image, 'photo.jpg']], fields: { format }, token })
    .then((res) => ({ status: res.status, headers: res.headers, body: res.json, json: res.json, text: res.bytes.toString('utf8'), at: Date.now() }))
    .catch(noAnswer);
}

/** Conversions counted for the token this month. */
export async function conversionsCounted(token: string): Promise<number> {
  const res = await call('image-api', 'GET', `/access-token/${token}`);
  expect(res.status, res.text).toBe(200);
  return res.body.api_limit_usage;
}

/** Each service's /health: its status code, the state of each dependency check, and how long it took to answer. */
export async function health(service: Service) {
  const started = Date.now();
  const res = await call(service, 'GET', '/health');
  const checks = (res.body?.checks ?? {}) as Record<string, { status: 'up' | 'down' }>;
  return { status: res.status, checks: Object.fromEntries(Object.entries(checks).map(([name, check]) => [name, check.status])), ms: Date.now() - started };
}

/** Runs `request` every `intervalMs` until `stop()`; every answer is kept, in order of sending. */
export function steadyLoad(request: (n: number) => Promise<Answer>, intervalMs: number) {
  const answers: Promise<Answer & { sentAt: number }>[] = [];
  let n = 0;
  const timer = setInterval(() => {
    const sentAt = Date.now();
    answers.push(request(n++).then((res) => ({ ...res, sentAt })));
  }, intervalMs);
  return {
    stop: async () => {
      clearInterval(timer);
      return Promise.all(answers);
    },
  };
}

/** One soft assertion over many answers: how many were not `allowed`, and the first few of them. */
export function expectOnly<T extends Answer>(answers: T[], allowed: (answer: T) => boolean, what: string) {
  const others = answers.filter((answer) => !allowed(answer));
  expect.soft(others.slice(0, 5).map((a) => `${a.status} ${(a.text || a.error || '').slice(0, 200)}`), `${what}: ${others.length} of ${answers.length} answers not allowed`).toEqual([]);
}

export const sleep = (ms: number) => new Promise((resolve) => setTimeout(resolve, ms));

/** Services whose process was started again, or died, since `before`. */
export async function restartsSince(before: Awaited<ReturnType<typeof stack.state>>) {
  const now = await stack.state();
  return Object.entries(now.services)
    .filter(([name, s]) => s.starts !== before.services[name as Service].starts || s.crashes.length !== before.services[name as Service].crashes.length)
    .map(([name, s]) => `${name}: ${s.starts - before.services[name as Service].starts} starts, crashes ${JSON.stringify(s.crashes)}`);
}
