import type { NestFastifyApplication } from '@nestjs/platform-fastify';
import { generateApiKey } from '@platform/auth';
import { generateReviewerToken, ReviewerService } from '@platform/review';
import { loadConfig } from '@platform/service-kit';
import { createTestKey, http, testAppEnv, type HttpResult } from '@platform/testing';
import { randomInt } from 'node:crypto';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { TranslateApiConfig } from '../config/translate-api.config';
import { serveTranslateApi } from '../translate-api.app';

const LIMIT = 10;

/** A client address of the documentation range 198.18.0.0/15, one per test, so that the counts of one test never meet another's. */
const newAddress = () => `198.${18 + randomInt(2)}.${randomInt(256)}.${randomInt(1, 255)}`;

const count = (answers: HttpResult[], status: number) => answers.filter((res) => res.status === status).length;

describe('guesses sent together are held to AUTH_FAILURES_PER_MINUTE (translate-api over HTTP)', () => {
  let app: NestFastifyApplication;
  let url: string;

  beforeAll(async () => {
    app = await serveTranslateApi(loadConfig(TranslateApiConfig, testAppEnv({ AUTH_FAILURES_PER_MINUTE: String(LIMIT), TRUSTED_PROXIES: '127.0.0.1' })));
    url = await app.getUrl();
  });
  afterAll(() => app?.close());

  const from = (address: string, method: string, path: string, options: { token?: string; json?: unknown } = {}) =>
    http(url, method, path, { ...options, headers: { 'x-forwarded-for': address } });

  it('evaluates at most the limit of API keys guessed at once from one address; then the address is locked, a valid key included', async () => {
    const address = newAddress();
    const answers = await Promise.all(Array.from({ length: 60 }, () => from(address, 'GET', '/api/v1/usage', { token: generateApiKey(true) })));
    expect(count(answers, 401)).toBe(LIMIT);
    expect(count(answers, 429)).toBe(60 - LIMIT);
    expect(answers.find((res) => res.status === 429)!.body).toEqual({ error: 'rate_limited', message: expect.stringMatching(/^Too many failed authentications from this address; retry in \d+ s$/) });

    const { plainKey } = await createTestKey();
    expect((await from(address, 'GET', '/api/v1/usage', { token: plainKey })).status).toBe(429);
    expect((await from(newAddress(), 'GET', '/api/v1/usage', { token: plainKey })).status).toBe(200);
  });

  it('holds keys guessed in a body (LibreTranslate) to the same limit', async () => {
    const address = newAddress();
    const answers = await Promise.all(
      Array.from({ length: 40 }, () => from(address, 'POST', '/translate', { json: { q: 'Hello', source: 'en', target: 'es', api_key: generateApiKey(true) } })),
    );
    // LibreTranslate answers a bad key with 403, and asks for authentication as a 401 does.
    expect(count(answers, 403)).toBe(LIMIT);
    expect(count(answers, 429)).toBe(40 - LIMIT);
  });

  it('evaluates at most the limit of reviewer tokens guessed at once from one address', async () => {
    const address = newAddress();
    const answers = await Promise.all(Array.from({ length: 60 }, () => from(address, 'GET', '/api/v1/review/tasks/next?lang=ga', { token: generateReviewerToken() })));
    expect(count(answers, 401)).toBe(LIMIT);
    expect(count(answers, 429)).toBe(60 - LIMIT);
    const { token } = await app.get(ReviewerService).create(['ga']);
    expect((await from(newAddress(), 'GET', '/api/v1/review/tasks/next?lang=ga', { token })).status).toBe(200);
  });

  it('takes nothing from the count for valid credentials, however many arrive together', async () => {
    const address = newAddress();
    const { plainKey } = await createTestKey();
    const { token } = await app.get(ReviewerService).create(['ga']);
    const valid = await Promise.all([
      ...Array.from({ length: 30 }, () => from(address, 'GET', '/api/v1/usage', { token: plainKey })),
      ...Array.from({ length: 30 }, () => from(address, 'GET', '/api/v1/review/tasks/next?lang=ga', { token })),
    ]);
    expect(valid.filter((res) => res.status !== 200).map((res) => res.body)).toEqual([]);
    const guesses = await Promise.all(Array.from({ length: LIMIT + 5 }, () => from(address, 'GET', '/api/v1/usage', { token: generateApiKey(true) })));
    expect(count(guesses, 401)).toBe(LIMIT);
  });
});
