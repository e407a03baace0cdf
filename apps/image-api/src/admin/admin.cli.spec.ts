import { NestFastifyApplication } from '@nestjs/platform-fastify';
import { loadConfig } from '@platform/service-kit';
import { http, testAppEnv } from '@platform/testing';
import { spawn } from 'node:child_process';
import { fileURLToPath } from 'node:url';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { ImageApiConfig } from '../config/image-api.config';
import { serveImageApi } from '../image-api.app';

const root = fileURLToPath(new URL('../../../../', import.meta.url));
const TOKEN = /^img_[0-9A-Za-z]{40}$/;

interface Run {
  code: number | null;
  stdout: string;
  stderr: string;
  lastLine: string;
}

function node(args: string[]): Promise<Run> {
  return new Promise((resolve, reject) => {
    const child = spawn(process.execPath, args, { cwd: root, env: testAppEnv() });
    let stdout = '';
    let stderr = '';
    child.stdout.on('data', (chunk) => (stdout += chunk));
    child.stderr.on('data', (chunk) => (stderr += chunk));
    child.on('error', reject);
    child.on('close', (code) => resolve({ code, stdout, stderr, lastLine: stdout.trimEnd().split('\n').at(-1) ?? '' }));
  });
}

const admin = (...args: string[]) => node(['dist/apps/image-api/main.js', 'admin', ...args]);

describe('operator CLI (built image-api, admin token:create)', () => {
  let app: NestFastifyApplication;
  let url: string;

  beforeAll(async () => {
    const build = await node(['tools/build.mjs', 'image-api']);
    expect(build.code, build.stderr).toBe(0);
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
    [['token:create'], /--plan is required/],
    [['token:create', '--plan', 'gold'], /--plan must be one of free, starter, pro, business/],
    [['token:create', '--plan', 'pro', '--limit', 'lots'], /--limit must be a whole number/],
    [['token:create', '--plan', 'pro', '--bogus'], /Unknown option '--bogus'/],
    [['nope'], /unknown admin command "nope"/],
  ])('refuses %j with a message on stderr and exit code 1', async (args, message) => {
    const run = await admin(...args);
    expect(run.code).toBe(1);
    expect(run.stdout).toBe('');
    expect(run.stderr).toMatch(message);
    expect(run.stderr).not.toMatch(/\n\s+at /);
  });
});
