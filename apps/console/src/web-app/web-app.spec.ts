import type { NestFastifyApplication } from '@nestjs/platform-fastify';
import { http } from '@platform/testing';
import { mkdirSync, mkdtempSync, writeFileSync } from 'node:fs';
import { get } from 'node:http';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { brotliDecompressSync, gunzipSync } from 'node:zlib';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startConsole } from '../console-browser.testing';
import { chooseEncoding } from './response-compression';

const INDEX = '<!doctype html><title>console</title><script type="module" src="/console/assets/index-AbC123.js"></script>';

function builtApp(): string {
  const dir = mkdtempSync(path.join(tmpdir(), 'console-web-'));
  mkdirSync(path.join(dir, 'assets'));
  writeFileSync(path.join(dir, 'index.html'), INDEX);
  writeFileSync(path.join(dir, 'assets/index-AbC123.js'), 'console.log(1)');
  writeFileSync(path.join(dir, 'assets/app-Def456.js'), BUNDLE);
  return dir;
}

/** A bundle large enough to be worth compressing. */
const BUNDLE = Array.from({ length: 400 }, (_, i) => `export const value${i} = "the console's code ${i}";`).join('\n');

/** The bytes as sent, undecoded (fetch would decode them), with the headers. */
function raw(url: string, headers: Record<string, string>): Promise<{ status: number; headers: Record<string, string | string[] | undefined>; body: Buffer }> {
  return new Promise((resolve, reject) => {
    get(url, { headers }, (res) => {
      const chunks: Buffer[] = [];
      res.on('data', (chunk: Buffer) => chunks.push(chunk));
      res.on('end', () => resolve({ status: res.statusCode!, headers: res.headers, body: Buffer.concat(chunks) }));
    }).on('error', reject);
  });
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

  it('sends an asset brotli- or gzip-compressed as the client accepts, for a year, varying on Accept-Encoding', async () => {
    const asset = `${url}/console/assets/app-Def456.js`;
    const br = await raw(asset, { 'accept-encoding': 'gzip, deflate, br' });
    expect(br.headers).toMatchObject({ 'content-encoding': 'br', vary: 'Accept-Encoding', 'cache-control': 'public, max-age=31536000, immutable' });
    expect(brotliDecompressSync(br.body).toString()).toBe(BUNDLE);
    expect(br.body.length).toBeLessThan(BUNDLE.length / 5);

    const gz = await raw(asset, { 'accept-encoding': 'gzip' });
    expect(gz.headers['content-encoding']).toBe('gzip');
    expect(gunzipSync(gz.body).toString()).toBe(BUNDLE);

    for (const accepted of [undefined, 'identity', 'br;q=0, gzip;q=0']) {
      const plain = await raw(asset, accepted ? { 'accept-encoding': accepted } : {});
      expect(plain.headers['content-encoding'], accepted).toBeUndefined();
      expect(plain.body.toString()).toBe(BUNDLE);
    }
  });

  it('compresses the session API’s answers worth it, and leaves small ones as they are', async () => {
    const document = await raw(`${url}/openapi.json`, { 'accept-encoding': 'br' });
    expect(document.status).toBe(200);
    expect(document.headers['content-encoding']).toBe('br');
    expect(JSON.parse(brotliDecompressSync(document.body).toString())).toMatchObject({ openapi: expect.any(String) });

    const small = await raw(`${url}/console/api/me`, { 'accept-encoding': 'br' });
    expect(small.status).toBe(401);
    expect(small.headers['content-encoding']).toBeUndefined();
    expect(JSON.parse(small.body.toString())).toMatchObject({ error: 'not_signed_in' });
  });

  it.each([
    ['gzip, deflate, br', 'br'],
    ['br;q=0.5, gzip', 'gzip'],
    ['gzip;q=0.8, *;q=0.1', 'gzip'],
    ['*', 'br'],
    ['BR', 'br'],
    ['deflate, identity', undefined],
    ['br;q=0, gzip;q=0', undefined],
    ['gzip;q=abc', undefined],
    ['', undefined],
  ])('reads Accept-Encoding %j as %s', (header, expected) => {
    expect(chooseEncoding(header)).toBe(expected);
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
