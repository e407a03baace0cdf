import { pollUntil } from '@platform/testing';
import { describe, expect, it } from 'vitest';
import { stack } from '../stack.config';
import { ALERT_TIMEOUT_MS, scrapeTargets, withoutPrometheus } from './prometheus.client';

/** Every deployable service, by the job name the rules select it by (its name, as in Kubernetes). */
const SERVICES = ['translate-api', 'image-api', 'webhook-dispatcher', 'batch-worker', 'image-worker', 'console'];

describe.skipIf(withoutPrometheus)('Prometheus on the stack', () => {
  it('scrapes every service, each up, on the address the stack gave it', async () => {
    const targets = await pollUntil(scrapeTargets, (all) => all.length === SERVICES.length && all.every((target) => target.health === 'up'), {
      timeoutMs: ALERT_TIMEOUT_MS,
      intervalMs: 500,
      what: 'every target up',
    });
    const urls = { 'translate-api': stack.translateUrl, 'image-api': stack.imageUrl, console: stack.consoleUrl, ...stack.workerUrls };
    expect(Object.fromEntries(targets.map((target) => [target.labels.job, target.labels.instance]))).toEqual(
      Object.fromEntries(SERVICES.map((service) => [service, new URL(urls[service as keyof typeof urls]!).host])),
    );
  });
});
