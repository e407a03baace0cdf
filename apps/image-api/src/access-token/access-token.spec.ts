import { Controller, DynamicModule, Get, Module } from '@nestjs/common';
import { NestFastifyApplication } from '@nestjs/platform-fastify';
import { dataSourceOptions, imageDomain } from '@platform/database';
import { imageEnvelope } from '@platform/errors';
import type { TokenPrincipal } from '@platform/image-tokens';
import { TokenService } from '@platform/image-tokens';
import { bootstrapHttpApp, loadConfig } from '@platform/service-kit';
import { http, testAppEnv } from '@platform/testing';
import { DataSource } from 'typeorm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { AppModule } from '../app.module';
import { ImageApiConfig } from '../config/image-api.config';
import { SECURITY_SCHEMES } from '../image-api.app';
import { AccessTokenAuth } from './access-token-auth.decorator';
import { AccessTokenPrincipal } from './access-token.guard';

/** A stand-in for the conversion routes: protected by the guard, echoes the admitted principal. */
@Controller('guarded')
class GuardedController {
  @Get()
  @AccessTokenAuth()
  whoami(@AccessTokenPrincipal() principal: TokenPrincipal) {
    return principal;
  }
}

@Module({})
class GuardedAppModule {
  static forRoot(config: ImageApiConfig): DynamicModule {
    return { module: GuardedAppModule, imports: [AppModule.forRoot(config)], controllers: [GuardedController] };
  }
}

describe('access tokens over HTTP', () => {
  const config = loadConfig(ImageApiConfig, testAppEnv({ PLAN_LIMIT_STARTER: '7' }));
  let app: NestFastifyApplication;
  let url: string;
  let tokens: TokenService;
  let dataSource: DataSource;

  beforeAll(async () => {
    app = await bootstrapHttpApp({
      service: 'image-api',
      module: GuardedAppModule.forRoot(config),
      config,
      envelope: imageEnvelope,
      openapi: { title: 'Image Conversion API', description: 'with a guarded stand-in route', securitySchemes: SECURITY_SCHEMES },
    });
    url = await app.getUrl();
    tokens = app.get(TokenService);
    dataSource = new DataSource(dataSourceOptions(config.DATABASE_URL, imageDomain, 2));
    await dataSource.initialize();
  });
  afterAll(async () => {
    await dataSource?.destroy();
    await app?.close();
  });

  const status = (token: string) => http(url, 'GET', `/access-token/${encodeURIComponent(token)}`);
  const deactivate = (subscriptionId: string) => dataSource.query('UPDATE image.subscriptions SET active = false WHERE id = $1', [subscriptionId]);

  it('reports usage against the plan limit from config and counts conversions', async () => {
    const { token, subscriptionId } = await tokens.create('starter');
    expect((await status(token)).body).toEqual({ api_limit_usage: 0, api_limit_max: 7, api_subscription_active: true, api_subscription_premium: true });
    await tokens.consume(subscriptionId, 7, 3);
    const res = await status(token);
    expect(res.status).toBe(200);
    expect(res.body).toMatchObject({ api_limit_usage: 3, api_limit_max: 7 });
  });

  it('reports a Free token as not premium and uses its override', async () => {
    const { token } = await tokens.create('free', 42);
    expect((await status(token)).body).toEqual({ api_limit_usage: 0, api_limit_max: 42, api_subscription_active: true, api_subscription_premium: false });
  });

  it('answers 402 with usage equal to the maximum once the limit is reached', async () => {
    const { token, subscriptionId } = await tokens.create('pro', 2);
    await tokens.consume(subscriptionId, 2, 2);
    const res = await status(token);
    expect(res.status).toBe(402);
    expect(res.body).toEqual({ error_message: expect.any(String), error_fatal_status: false, api_limit_usage: 2, api_limit_max: 2 });
  });

  it.each([`img_${'A'.repeat(40)}`, 'garbage', 'img_'])('answers 401 (fatal) for the unknown token %s', async (token) => {
    const res = await status(token);
    expect(res.status).toBe(401);
    expect(res.body).toEqual({ error_message: expect.any(String), error_fatal_status: true });
  });

  it('reports an inactive subscription as inactive', async () => {
    const { token, subscriptionId } = await tokens.create('business');
    await deactivate(subscriptionId);
    const res = await status(token);
    expect(res.status).toBe(200);
    expect(res.body).toMatchObject({ api_subscription_active: false, api_subscription_premium: true });
  });

  describe('X-Access-Token guard', () => {
    const guarded = (token?: string) => http(url, 'GET', '/guarded', { headers: token === undefined ? {} : { 'x-access-token': token } });

    it('admits an active token and hands its principal to the route', async () => {
      const { token, subscriptionId } = await tokens.create('free');
      const res = await guarded(token);
      expect(res.status).toBe(200);
      expect(res.body).toEqual({ subscriptionId, plan: 'free', active: true, limit: 500 });
    });

    it('answers 401 for a missing or unknown token and 403 for an inactive subscription', async () => {
      const fatal = { error_message: expect.any(String), error_fatal_status: true };
      const missing = await guarded();
      expect([missing.status, missing.body]).toEqual([401, fatal]);
      const unknown = await guarded(`img_${'B'.repeat(40)}`);
      expect([unknown.status, unknown.body]).toEqual([401, fatal]);
      const { token, subscriptionId } = await tokens.create('starter');
      await deactivate(subscriptionId);
      const inactive = await guarded(token);
      expect([inactive.status, inactive.body]).toEqual([403, fatal]);
    });
  });

  it('documents the status endpoint and the guarded route in the OpenAPI document', async () => {
    const { paths } = (await http(url, 'GET', '/openapi.json')).body;
    expect(Object.keys(paths['/access-token/{token}'].get.responses)).toEqual(expect.arrayContaining(['200', '401', '402']));
    expect(paths['/guarded'].get.security).toEqual([{ 'access-token': [] }]);
    expect(Object.keys(paths['/guarded'].get.responses)).toEqual(expect.arrayContaining(['401', '403']));
  });
});
