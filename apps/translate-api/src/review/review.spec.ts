import type { NestFastifyApplication } from '@nestjs/platform-fastify';
import { ReviewerService } from '@platform/review';
import { loadConfig } from '@platform/service-kit';
import { createTestKey, http, testAppEnv } from '@platform/testing';
import { DataSource } from 'typeorm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { TranslateApiConfig } from '../config/translate-api.config';
import { serveTranslateApi } from '../translate-api.app';

/** The reviewer routes' gatekeeping; the whole review flow with batch-worker is in its review-processing spec. */
describe('review routes', () => {
  let app: NestFastifyApplication;
  let url: string;

  const next = (token: string | undefined, lang = 'ga') => http(url, 'GET', `/api/v1/review/tasks/next?lang=${lang}`, { token });

  beforeAll(async () => {
    app = await serveTranslateApi(loadConfig(TranslateApiConfig, testAppEnv()));
    url = await app.getUrl();
  });
  afterAll(() => app?.close());

  it('answers a reviewer with task null when no task in the language is open', async () => {
    const { token } = await app.get(ReviewerService).create(['ga']);
    expect(await next(token)).toMatchObject({ status: 200, body: { ok: true, task: null } });
  });

  it('refuses API keys, malformed and revoked reviewer tokens with 401 invalid_key', async () => {
    const key = await createTestKey();
    const { reviewer, token } = await app.get(ReviewerService).create(['ga']);
    await app.get(DataSource).query('UPDATE translation.reviewers SET revoked_at = now() WHERE id = $1', [reviewer.id]);
    for (const candidate of [key.plainKey, 'rvw_short', token, undefined]) {
      const res = await next(candidate);
      expect(res.status).toBe(401);
      expect(res.body).toEqual({ error: 'invalid_key', message: 'Send a reviewer token: Authorization: Bearer rvw_...' });
    }
  });

  it('refuses a language the reviewer does not review with 403 and a malformed one with 422', async () => {
    const { token } = await app.get(ReviewerService).create(['ga', 'mt']);
    expect(await next(token, 'de')).toMatchObject({ status: 403, body: { error: 'forbidden', message: 'You review ga, mt, not de' } });
    expect(await next(token, 'DE')).toMatchObject({ status: 422, body: { error: 'unsupported_language', message: expect.stringContaining('lang must be an ISO 639-1 code') } });
    expect(await http(url, 'GET', '/api/v1/review/tasks/next', { token })).toMatchObject({ status: 422 });
  });

  it('documents the review routes and the 202 of tier review in the OpenAPI document', async () => {
    const { body } = await http(url, 'GET', '/openapi.json');
    expect(Object.keys(body.paths['/api/v1/review/tasks/next'].get.responses)).toEqual(expect.arrayContaining(['200', '401', '403']));
    expect(Object.keys(body.paths['/api/v1/review/tasks/{id}'].post.responses)).toEqual(expect.arrayContaining(['200', '404', '409', '422']));
    expect(body.paths['/api/v1/translate'].post.responses).toHaveProperty('202');
  });
});
