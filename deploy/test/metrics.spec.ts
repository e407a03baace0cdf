import type { NestFastifyApplication } from '@nestjs/platform-fastify';
import type { ServiceName } from '@platform/contracts';
import { loadConfig } from '@platform/service-kit';
import { createTestKey, http, type StandIn, startLibreTranslateStandIn, testAppEnv, WEBHOOK_TEST_ENV } from '@platform/testing';
import { beforeAll, describe, expect, it } from 'vitest';
/* eslint-disable no-restricted-imports -- every service is started as it runs, to read what it really exports */
import { serveBatchWorker } from '../../apps/batch-worker/src/batch-worker.app';
import { BatchWorkerConfig } from '../../apps/batch-worker/src/config/batch-worker.config';
import { ConsoleConfig } from '../../apps/console/src/config/console.config';
import { serveConsole } from '../../apps/console/src/console.app';
import { ImageApiConfig } from '../../apps/image-api/src/config/image-api.config';
import { serveImageApi } from '../../apps/image-api/src/image-api.app';
import { ImageWorkerConfig } from '../../apps/image-worker/src/config/image-worker.config';
import { serveImageWorker } from '../../apps/image-worker/src/image-worker.app';
import { TranslateApiConfig } from '../../apps/translate-api/src/config/translate-api.config';
import { serveTranslateApi } from '../../apps/translate-api/src/translate-api.app';
import { WebhookDispatcherConfig } from '../../apps/webhook-dispatcher/src/config/webhook-dispatcher.config';
import { serveWebhookDispatcher } from '../../apps/webhook-dispatcher/src/webhook-dispatcher.app';
/* eslint-enable no-restricted-imports */
import { type DocumentedMetric, documentedMetrics } from './metrics-catalog';
import { type ExposedMetric, parseExposition } from './prometheus-exposition';
import { SERVICES } from './service-contract';

const SERVICE_NAMES = Object.keys(SERVICES) as ServiceName[];
/** prom-client's process and Node.js metrics: documented where alerts or dashboards use them. */
const DEFAULT_METRIC = /^(process|nodejs)_/;

const start: Record<ServiceName, (env: NodeJS.ProcessEnv) => Promise<NestFastifyApplication>> = {
  'translate-api': (env) => serveTranslateApi(loadConfig(TranslateApiConfig, { ...env, ...WEBHOOK_TEST_ENV })),
  'batch-worker': (env) => serveBatchWorker(loadConfig(BatchWorkerConfig, env)),
  'webhook-dispatcher': (env) => serveWebhookDispatcher(loadConfig(WebhookDispatcherConfig, { ...env, ...WEBHOOK_TEST_ENV })),
  'image-api': (env) => serveImageApi(loadConfig(ImageApiConfig, env)),
  'image-worker': (env) => serveImageWorker(loadConfig(ImageWorkerConfig, env)),
  console: (env) => serveConsole(loadConfig(ConsoleConfig, env)),
};

/**
 * What a service exports once it has answered a request: most labelled metrics start with a 0
 * for each of their known label values; translate-api, with two engines, translates a text for
 * the metrics that are labelled by what was translated.
 */
async function scrape(service: ServiceName, libre: StandIn): Promise<Map<string, ExposedMetric>> {
  const engines: Record<string, string> = service === 'translate-api' ? { TRANSLATION_ENGINES: 'apertium,libretranslate', LIBRETRANSLATE_URL: libre.url } : {};
  const app = await start[service](testAppEnv(engines));
  try {
    const url = await app.getUrl();
    expect((await http(url, 'GET', '/health/live')).status).toBe(200);
    if (service === 'translate-api') {
      const { plainKey } = await createTestKey();
      const translated = await http(url, 'POST', '/api/v1/translate', { token: plainKey, json: { source: 'en', target: 'es', texts: ['The cat sleeps.'] } });
      expect(translated.status).toBe(200);
    }
    return parseExposition((await http(url, 'GET', '/metrics')).text);
  } finally {
    await app.close();
  }
}

describe('docs/metrics.md against what each service exports on /metrics', () => {
  const documented = documentedMetrics();
  const exported = new Map<ServiceName, Map<string, ExposedMetric>>();
  const listedFor = (service: ServiceName) => documented.filter((metric) => metric.services.includes(service));

  beforeAll(async () => {
    const libre = await startLibreTranslateStandIn();
    try {
      // One after another: six apps starting at once in one process can starve each other's deadlines.
      for (const service of SERVICE_NAMES) exported.set(service, await scrape(service, libre));
    } finally {
      await libre.stop();
    }
  }, 180_000);

  it('lists each metric once', () => {
    const names = documented.map((metric) => metric.name);
    expect(names.filter((name, index) => names.indexOf(name) !== index)).toEqual([]);
  });

  it.each(SERVICE_NAMES)('lists exactly the metrics %s exports, each of its type', (service) => {
    const metrics = exported.get(service)!;
    const ownExported = [...metrics.keys()].filter((name) => !DEFAULT_METRIC.test(name)).sort();
    const ownListed = listedFor(service)
      .map((metric) => metric.name)
      .filter((name) => !DEFAULT_METRIC.test(name))
      .sort();
    expect(ownListed).toEqual(ownExported);
    const types = (list: DocumentedMetric[]) => list.map((metric) => [metric.name, metric.type]);
    expect(types(listedFor(service))).toEqual(listedFor(service).map((metric) => [metric.name, metrics.get(metric.name)?.type]));
  });

  it.each(SERVICE_NAMES)('lists the labels %s gives each series', (service) => {
    const metrics = exported.get(service)!;
    const mismatched = listedFor(service).flatMap((metric) =>
      [...(metrics.get(metric.name)?.labelSets ?? [])].filter((set) => set !== metric.labels.join(',')).map((set) => `${metric.name}: exported {${set}}, listed {${metric.labels}}`),
    );
    expect(mismatched).toEqual([]);
  });

  it('has a series of every metric it lists for some service, so that its labels were compared', () => {
    const unseen = documented.filter((metric) => metric.services.length > 0 && !metric.services.some((service) => (exported.get(service)?.get(metric.name)?.labelSets.size ?? 0) > 0));
    expect(unseen.map((metric) => metric.name)).toEqual([]);
  });
});
