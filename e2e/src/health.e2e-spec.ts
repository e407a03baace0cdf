import { http } from '@platform/testing';
import { describe, expect, it } from 'vitest';
import { stack } from './stack.config';

/** /health gives each dependency 2 s, so a service that takes longer is hung. */
const HEALTH_TIMEOUT_MS = 10_000;

const up = (...dependencies: string[]) => Object.fromEntries(dependencies.map((dependency) => [dependency, { status: 'up' }]));

/** Every service given, with the dependencies its /health checks. */
const services = [
  { name: 'translate-api', url: stack.translateUrl, checks: up('postgres', 'redis') },
  { name: 'image-api', url: stack.imageUrl, checks: up('postgres', 'redis', 's3') },
  { name: 'batch-worker', url: stack.workerUrls['batch-worker'], checks: up('postgres', 'redis') },
  { name: 'webhook-dispatcher', url: stack.workerUrls['webhook-dispatcher'], checks: up('postgres', 'redis') },
  { name: 'image-worker', url: stack.workerUrls['image-worker'], checks: up('postgres', 'redis', 's3') },
].filter((service): service is typeof service & { url: string } => service.url !== undefined);

describe('operational endpoints', () => {
  it.each(services)('$name reports its dependencies up on /health', async ({ url, checks }) => {
    // A hung service fails here rather than at the test's timeout.
    const res = await fetch(`${url}/health`, { signal: AbortSignal.timeout(HEALTH_TIMEOUT_MS) });
    expect(res.status).toBe(200);
    expect(await res.json()).toEqual({ status: 'ok', checks });
  });

  const apis = [
    { name: 'translate-api', url: stack.translateUrl, path: '/api/v1/translate' },
    { name: 'image-api', url: stack.imageUrl, path: '/convert' },
  ];

  it.each(apis)('$name serves its OpenAPI document', async ({ url, path }) => {
    const res = await http(url, 'GET', '/openapi.json');
    expect(res.status).toBe(200);
    expect(res.body.openapi).toMatch(/^3\./);
    expect(res.body.paths).toHaveProperty([path]);
  });

  // As deployed: the bundle reads Swagger UI's files from the node_modules installed beside it.
  it.each(apis)('$name serves its API reference page with every file it references', async ({ url }) => {
    const page = await http(url, 'GET', '/docs');
    expect(page.status).toBe(200);
    expect(page.headers.get('content-type')).toMatch(/^text\/html/);
    const assets = [...page.text.matchAll(/\b(?:src|href)="([^"]*)"/g)].map((match) => match[1]);
    expect(assets).toEqual(expect.arrayContaining(['/docs/swagger-ui.css', '/docs/swagger-ui-bundle.js']));
    for (const asset of assets) expect((await http(url, 'GET', asset)).status, asset).toBe(200);
  });
});
