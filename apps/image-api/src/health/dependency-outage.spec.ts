import { NestFastifyApplication } from '@nestjs/platform-fastify';
import { imageDomain, runMigrations } from '@platform/database';
import { TokenService } from '@platform/image-tokens';
import { loadConfig } from '@platform/service-kit';
import { expectEventually, http, type OwnDependency, startOwnPostgres, testAppEnv } from '@platform/testing';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { ImageApiConfig } from '../config/image-api.config';
import { serveImageApi } from '../image-api.app';

/** image-api on a Postgres of the test's own, which it stops and starts again. */
describe('image-api while Postgres is down', () => {
  let postgres: OwnDependency;
  let app: NestFastifyApplication;
  let url: string;

  beforeAll(async () => {
    postgres = await startOwnPostgres();
    await runMigrations(postgres.url, imageDomain);
    app = await serveImageApi(loadConfig(ImageApiConfig, testAppEnv({ DATABASE_URL: postgres.url, UNAVAILABLE_RETRY_AFTER_SECONDS: '3' })));
    url = await app.getUrl();
  }, 120_000);
  afterAll(async () => {
    await app?.close();
    await postgres?.destroy();
  });

  it('answers 503 with Retry-After, not fatal, and 200 again once Postgres is back, without a restart', async () => {
    const { token } = await app.get(TokenService).create('free');
    const status = () => http(url, 'GET', `/access-token/${token}`);
    expect((await status()).status).toBe(200);

    await postgres.stop();
    try {
      const res = await status();
      expect(res.status).toBe(503);
      expect(res.body).toEqual({ error_message: expect.stringMatching(/^Service temporarily unavailable/), error_fatal_status: false });
      expect(res.headers.get('retry-after')).toBe('3');
    } finally {
      await postgres.start();
    }

    await expectEventually(async () => expect((await status()).status).toBe(200), { timeoutMs: 20_000 });
  });
});
