import type { INestApplication } from '@nestjs/common';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { http } from './http-client';
import { testAppEnv } from './test-env';

export interface ApiReferenceSuite {
  service: string;
  start: (env: NodeJS.ProcessEnv) => Promise<INestApplication>;
  /** The document's security schemes: each name with what its description must say of the secret's form. */
  securitySchemes: Record<string, RegExp>;
  /** A route that needs credentials, requested without: the status it must keep answering. */
  guarded: { path: string; status: number };
}

/** Every `src` and `href` of a page. */
const references = (html: string) => [...html.matchAll(/\b(?:src|href)="([^"]*)"/g)].map((match) => match[1]);

/**
 * The API reference page: /docs renders /openapi.json with Swagger UI from files the app serves
 * itself (no other origin, so offline and under the page's own CSP), and none of its routes opens
 * a way around the credentials of the API's routes.
 */
export function describeApiReference(suite: ApiReferenceSuite): void {
  describe(`${suite.service} API reference page`, () => {
    let app: INestApplication;
    let url: string;

    beforeAll(async () => {
      app = await suite.start(testAppEnv());
      url = await app.getUrl();
    });
    afterAll(() => app.close());

    it('serves /docs as HTML that references only its own files, under a CSP that allows nothing else', async () => {
      const res = await http(url, 'GET', '/docs');
      expect(res.status).toBe(200);
      expect(res.headers.get('content-type')).toBe('text/html; charset=utf-8');
      expect(res.headers.get('x-content-type-options')).toBe('nosniff');
      const csp = res.headers.get('content-security-policy') ?? '';
      expect(csp).toContain("default-src 'none'");
      expect(csp).toContain("script-src 'self'");
      expect(csp).toContain("connect-src 'self'");
      expect(res.text).not.toMatch(/<script>|<script [^>]*>[^<]/);
      const assets = references(res.text);
      expect(assets.length).toBeGreaterThanOrEqual(3);
      for (const asset of assets) expect(asset).toMatch(/^\/docs\/[\w.-]+$/);
    });

    it('serves every file the page references, with its content type', async () => {
      const page = await http(url, 'GET', '/docs');
      const types = { '.css': 'text/css; charset=utf-8', '.js': 'text/javascript; charset=utf-8' };
      for (const asset of references(page.text)) {
        const res = await http(url, 'GET', asset);
        expect(res.status, asset).toBe(200);
        expect(res.headers.get('content-type'), asset).toBe(types[asset.slice(asset.lastIndexOf('.')) as keyof typeof types]);
        expect(res.headers.get('x-content-type-options')).toBe('nosniff');
        expect(res.text.length, asset).toBeGreaterThan(100);
      }
      const bundle = await http(url, 'GET', '/docs/swagger-ui-bundle.js');
      expect(bundle.text).toContain('SwaggerUIBundle');
      // Swagger UI would send the document to an online validator unless told not to.
      const initializer = await http(url, 'GET', '/docs/swagger-initializer.js');
      expect(initializer.text).toContain("url: '/openapi.json'");
      expect(initializer.text).toContain('validatorUrl: null');
      expect(`${initializer.text}${page.text}`).not.toMatch(/https?:\/\//);
    });

    it('renders the document whose security schemes name the real credential formats', async () => {
      const { status, body } = await http(url, 'GET', '/openapi.json');
      expect(status).toBe(200);
      expect(Object.keys(body.components.securitySchemes).sort()).toEqual(Object.keys(suite.securitySchemes).sort());
      for (const [name, form] of Object.entries(suite.securitySchemes)) {
        const scheme = body.components.securitySchemes[name];
        expect(scheme.description, name).toMatch(form);
        expect(scheme).not.toHaveProperty('bearerFormat');
      }
    });

    it('serves only its fixed files, and opens no way around the credentials of other routes', async () => {
      for (const path of ['/docs/package.json', '/docs/index.html', '/docs/swagger-ui-bundle.js.map', '/docs/', '/docs/..%2fpackage.json']) {
        expect((await http(url, 'GET', path)).status, path).toBe(404);
      }
      const direct = await http(url, 'GET', suite.guarded.path);
      expect(direct.status).toBe(suite.guarded.status);
      for (const path of [`/docs/..${suite.guarded.path}`, `/docs/%2e%2e${suite.guarded.path}`, `/docs/..%2f..${suite.guarded.path}`]) {
        const res = await http(url, 'GET', path);
        expect([404, suite.guarded.status], path).toContain(res.status);
      }
    });

    it('is not served when the OpenAPI document is turned off', async () => {
      const closed = await suite.start(testAppEnv({ OPENAPI_ENABLED: 'false' }));
      try {
        const closedUrl = await closed.getUrl();
        for (const path of ['/openapi.json', '/docs', '/docs/swagger-ui-bundle.js']) expect((await http(closedUrl, 'GET', path)).status, path).toBe(404);
      } finally {
        await closed.close();
      }
    });
  });
}
