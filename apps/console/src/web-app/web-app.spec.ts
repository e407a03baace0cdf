import type { NestFastifyApplication } from '@nestjs/platform-fastify';
import { http } from '@platform/testing';
import { mkdirSync, mkdtempSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startConsole } from '../console-browser.testing';

const INDEX = '<!doctype html><title>console</title><script type="module" src="/console/assets/index-AbC123.js"></script>';

function builtApp(): string {
  const dir = mkdtempSync(path.join(tmpdir(), 'console-web-'));
  mkdirSync(path.join(dir, 'assets'));
  writeFileSync(path.join(dir, 'index.html'), INDEX);
  writeFileSync(path.join(dir, 'assets/index-AbC123.js'), 'console.log(1)');
  return dir;
}

describe('the browser app as the console serves it', () => {
  let app: NestFastifyApplication;
  let url: string;

  beforeAll(async () => ({ app, url } = await startConsole({ CONSOLE_WEB_DIR: builtApp() })));
  afterAll(() => app.close());

  it.each(['/console', '/console/', '/console/keys', '/console/accept-invitation'])('answers %s with the page, revalidated and under a strict CSP', async (page) => {
    const res = await http(url, 'GET', page);
    expect(res.status).toBe(200);
    expect(res.text).toBe(INDEX);
    expect(res.headers.get('cache-control')).toBe('no-cache');
    expect(res.headers.get('content-security-policy')).toContain("script-src 'self'");
    expect(res.headers.get('content-security-policy')).toContain("frame-ancestors 'none'");
  });

  it('sends / to the console', async () => {
    const res = await http(url, 'GET', '/', { redirect: 'manual' });
    expect(res.status).toBe(302);
    expect(res.headers.get('location')).toBe('/console/');
  });

  it('serves hashed assets for a year', async () => {
    const res = await http(url, 'GET', '/console/assets/index-AbC123.js');
    expect(res.status).toBe(200);
    expect(res.headers.get('content-type')).toMatch(/^text\/javascript/);
    expect(res.headers.get('cache-control')).toBe('public, max-age=31536000, immutable');
  });

  it.each(['/console/assets/missing-1.js', '/console/assets/..%2findex.html', '/console/assets/..%2f..%2f..%2fetc%2fpasswd', '/console/assets/index.html', '/console/assets/index-AbC123.js%00.map'])(
    'answers %s with 404 in the envelope, never a file outside the assets',
    async (asset) => {
      const res = await http(url, 'GET', asset);
      expect(res.status).toBe(404);
      expect(res.body).toMatchObject({ error: 'not_found' });
    },
  );

  it('never answers an unknown session API path with the page', async () => {
    const res = await http(url, 'GET', '/console/api/no-such-thing');
    expect(res.status).toBe(404);
    expect(res.body).toEqual({ error: 'not_found', message: 'No such endpoint' });
  });
});

describe('a console whose browser app is not built', () => {
  it('says so in the envelope', async () => {
    const { app, url } = await startConsole({ CONSOLE_WEB_DIR: mkdtempSync(path.join(tmpdir(), 'console-empty-')) });
    try {
      const res = await http(url, 'GET', '/console/keys');
      expect(res.status).toBe(503);
      expect(res.body).toMatchObject({ error: 'console_not_built', message: expect.stringContaining('nx run console:build') });
    } finally {
      await app.close();
    }
  });
});
