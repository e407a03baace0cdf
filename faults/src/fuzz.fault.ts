import { afterAll, describe, expect, it } from 'vitest';
import { runFuzz, type FuzzTarget } from './fuzz/openapi-fuzzer';
import { call, health, newImageToken, newTranslationKey, restartsSince } from './platform.client';
import { SERVICES, stack, startStopped, type Service } from './stack.control';

const REQUESTS = 10_000;

/**
 * The secret each security scheme of a document takes: reviewer tokens for the reviewer scheme,
 * an access token for the image API, a `manage` key for everything else of the translation API.
 */
function credentialsFor(document: any, secrets: { key: string; reviewer: string; image: string }): Record<string, string> {
  const schemes = Object.entries<any>(document.components?.securitySchemes ?? {});
  return Object.fromEntries(
    schemes.map(([name, scheme]) => {
      const said = `${name} ${scheme.description ?? ''}`.toLowerCase();
      if (/reviewer|rvw_/.test(said)) return [name, secrets.reviewer];
      if (scheme.in === 'header' && /access-token/i.test(scheme.name ?? '')) return [name, secrets.image];
      if (/access.?token|img_/.test(said)) return [name, secrets.image];
      return [name, secrets.key];
    }),
  );
}

describe(`fuzz: ${REQUESTS} requests generated from both OpenAPI documents`, () => {
  afterAll(startStopped);

  it('gets no 5xx, crashes nothing, and every error comes in its API\'s envelope', async () => {
    const before = await stack.state();
    const secrets = {
      key: await newTranslationKey('fuzz', '--manage'),
      reviewer: await stack.admin('translate-api', ['reviewer:create', '--languages', 'es,fr,de', '--name', 'fuzz']),
      image: await newImageToken(),
    };
    const targets: [Service, FuzzTarget['envelope']][] = [['translate-api', 'translation'], ['image-api', 'image']];
    for (const [service, envelope] of targets) {
      const document = await call(service, 'GET', '/openapi.json');
      expect(document.status, document.text).toBe(200);
      const report = await runFuzz(
        { baseUrl: before.urls[service], document: document.body, envelope, credentials: credentialsFor(document.body, secrets) },
        { requests: REQUESTS / targets.length, seed: 10, concurrency: 4 },
      );
      console.log(`[fuzz] ${service}: ${report.total} requests, by status ${JSON.stringify(report.byStatus)}, ${report.problems.length} problems`);
      expect(report.total).toBe(REQUESTS / targets.length);
      expect(Object.keys(report.byStatus).filter((status) => status.startsWith('5')), `${service}: 5xx answers`).toEqual([]);
      expect(report.problems.slice(0, 20), `${service}: answers outside the contract`).toEqual([]);
    }
    for (const service of SERVICES) expect((await health(service)).status, `${service} /health after the fuzz run`).toBe(200);
    expect(await restartsSince(before)).toEqual([]);
  });
});
