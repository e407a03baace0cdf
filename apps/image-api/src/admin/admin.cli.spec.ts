import { NestFastifyApplication } from '@nestjs/platform-fastify';
import { loadConfig } from '@platform/service-kit';
import { buildApp, expectOperatorMistake, http, runNode, testAppEnv } from '@platform/testing';
import { randomUUID } from 'node:crypto';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { ImageApiConfig } from '../config/image-api.config';
import { serveImageApi } from '../image-api.app';

const TOKEN = /^img_[0-9A-Za-z]{40}$/;

const admin = (...args: string[]) => runNode(['dist/apps/image-api/main.js', 'admin', ...args]);

describe('operator CLI (built image-api, admin token:create)', () => {
  let app: NestFastifyApplication;
  let url: string;

  beforeAll(async () => {
    await buildApp('image-api');
    app = await serveImageApi(loadConfig(ImageApiConfig, testAppEnv()));
    url = await app.getUrl();
  });
  afterAll(() => app?.close());

  it('prints a token alone on the last line that GET /access-token accepts with the plan limit', async () => {
    const run = await admin('token:create', '--plan', 'starter');
    expect(run.code, run.stderr).toBe(0);
    expect(run.lastLine).toMatch(TOKEN);
    const res = await http(url, 'GET', `/access-token/${run.lastLine}`);
    expect(res.status).toBe(200);
    expect(res.body).toEqual({ api_limit_usage: 0, api_limit_max: 10_000, api_subscription_active: true, api_subscription_premium: true });
  });

  it('applies --limit to the new token', async () => {
    const run = await admin('token:create', '--plan', 'free', '--limit', '25');
    expect(run.code, run.stderr).toBe(0);
    const res = await http(url, 'GET', `/access-token/${run.lastLine}`);
    expect(res.body).toMatchObject({ api_limit_max: 25, api_subscription_premium: false });
  });

  it.each([
    // Linking to a customer account is the console's: only it reaches the accounts to check one.
    [['token:create', '--plan', 'free', '--account', randomUUID()], /Unknown option '--account'/],
    [['subscription:link', randomUUID(), '--account', 'none'], /unknown admin command "subscription:link"/],
    [['token:create'], /--plan is required/],
    [['token:create', '--plan', 'gold'], /--plan must be one of free, starter, pro, business/],
    [['token:create', '--plan', 'pro', '--limit', 'lots'], /--limit must be a whole number/],
    [['token:create', '--plan', 'pro', '--bogus'], /Unknown option '--bogus'/],
    [['nope'], /unknown admin command "nope"/],
  ])('refuses %j with a message on stderr and exit code 1', async (args, message) => {
    const run = await admin(...args);
    expectOperatorMistake(run, message);
  });
});
