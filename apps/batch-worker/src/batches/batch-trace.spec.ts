import { QueueName } from '@platform/contracts';
import {
  buildApp,
  http,
  pollUntil,
  startBuiltApp,
  startLibreTranslateStandIn,
  startOtlpReceiver,
  startWebhookReceiver,
  testAppEnv,
  WEBHOOK_TEST_ENV,
  type BuiltApp,
  type OtlpReceiver,
  type ReceivedSpan,
  type ReceivedWebhook,
  type StandIn,
  type WebhookReceiver,
} from '@platform/testing';
import Bull from 'bull';
import { Webhook } from 'standardwebhooks';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createIsolatedStack, type IsolatedStack } from './isolated-stack.testing';

const SERVICES = ['translate-api', 'batch-worker', 'webhook-dispatcher'] as const;
type Service = (typeof SERVICES)[number];

const SPAN_KIND = { server: 2, client: 3, consumer: 5 };

/** A receiver's path with a credential in it, as Slack's and others' webhook URLs have; no span may record it. */
const RECEIVER_PATH = '/hooks/T0/B0/s3cr3tHookCredential';

/** `00-<trace id>-<span id>-<flags>` */
const TRACEPARENT = /^00-([0-9a-f]{32})-([0-9a-f]{16})-0[01]$/;

/**
 * One batch followed from its request to its webhook across the three built apps, each in its own
 * process exporting to an OTLP receiver in the test, as an operator who turns tracing on sees it.
 */
describe('traces of a batch across translate-api, batch-worker and webhook-dispatcher', () => {
  let stack: IsolatedStack;
  let engine: StandIn;
  let collector: OtlpReceiver;
  let receiver: WebhookReceiver;
  const running: BuiltApp[] = [];

  beforeAll(async () => {
    [stack, engine, collector, receiver] = await Promise.all([createIsolatedStack(), startLibreTranslateStandIn(), startOtlpReceiver(), startWebhookReceiver()]);
    await Promise.all(SERVICES.map(buildApp));
  }, 180_000);
  afterAll(async () => {
    await stopAll();
    await Promise.all([engine?.stop(), collector?.stop(), receiver?.stop()]);
    if (stack) {
      const deliveries = new Bull(QueueName.Webhooks, stack.redisUrl);
      await deliveries.obliterate({ force: true });
      await deliveries.close();
      await stack.destroy();
    }
  });

  /** The three apps on the isolated stack, with `tracing` as their OTEL_* variables. */
  async function startAll(tracing: Record<string, string>): Promise<Record<Service, BuiltApp>> {
    const env = testAppEnv({
      ...WEBHOOK_TEST_ENV,
      DATABASE_URL: stack.databaseUrl,
      REDIS_URL: stack.redisUrl,
      TRANSLATION_ENGINE: 'libretranslate',
      LIBRETRANSLATE_URL: engine.url,
      // The "listening" line the start waits for, and the job lines checked below, are info lines.
      LOG_LEVEL: 'info',
      ...tracing,
    });
    const apps = Object.fromEntries(SERVICES.map((service) => [service, startBuiltApp(service, env)])) as Record<Service, BuiltApp>;
    running.push(...Object.values(apps));
    await Promise.all(Object.values(apps).map((app) => app.listening));
    return apps;
  }

  /** SIGTERM, as Kubernetes stops a pod: each must exit 0, having exported what it still held. */
  async function stopAll() {
    const apps = running.splice(0);
    for (const app of apps) app.child.kill('SIGTERM');
    const exits = await Promise.all(apps.map((app) => app.exit));
    expect(exits.map((exit) => exit.code)).toEqual(apps.map(() => 0));
  }

  /** An account with a webhook endpoint on the receiver; a batch of it, and the webhook that announces it. */
  async function batchToWebhook(api: BuiltApp): Promise<{ job: string; webhook: ReceivedWebhook; secret: string }> {
    const url = await api.listening;
    const key = await stack.createKey({ scopes: ['translate', 'manage'] });
    const registered = await http(url, 'PUT', '/api/v1/webhook', { token: key.plainKey, json: { url: `${receiver.url}${RECEIVER_PATH}` } });
    expect(registered.status).toBe(201);
    const submitted = await http(url, 'POST', '/api/v1/batches', { token: key.plainKey, json: { source: 'en', target: 'de', texts: ['The cat is sleeping.', 'Good morning.'] } });
    expect(submitted.status).toBe(202);
    const job = submitted.body.job as string;
    const webhook = await pollUntil(
      () => receiver.received.find((request) => JSON.parse(request.body).data?.job === job),
      (found) => found !== undefined,
      { timeoutMs: 30_000, what: `the webhook of batch ${job}` },
    );
    return { job, webhook: webhook!, secret: registered.body.webhook.secret };
  }

  /** The data of the batch's Bull job, as the worker found it (completed jobs are kept a day). */
  async function batchJobData(job: string): Promise<Record<string, unknown>> {
    const queue = new Bull(QueueName.Batches, stack.redisUrl);
    try {
      const jobs = await queue.getJobs(['completed', 'failed', 'active', 'waiting', 'delayed']);
      return jobs.find((entry) => entry.data.jobId === job)!.data;
    } finally {
      await queue.close();
    }
  }

  const outboxTrace = (job: string) =>
    stack.sql<{ job_name: string; traceparent: string | null; tracestate: string | null }>(
      `SELECT job_name, traceparent, tracestate FROM translation.outbox WHERE payload->>'jobId' = $1 ORDER BY id`,
      [job],
    );

  /** The JSON log lines of a process that name a trace. */
  const tracedLines = (app: BuiltApp) =>
    app
      .stdout()
      .split('\n')
      .filter((line) => line.startsWith('{'))
      .map((line) => JSON.parse(line))
      .filter((entry) => 'trace_id' in entry || 'span_id' in entry);

  it('runs one trace from POST /api/v1/batches through both workers to the receiver, which gets its traceparent', { timeout: 180_000 }, async () => {
    const apps = await startAll({
      OTEL_EXPORTER_OTLP_ENDPOINT: collector.url,
      OTEL_EXPORTER_OTLP_PROTOCOL: 'http/json',
      // Nothing is exported on a timer: whatever the receiver gets below, the SIGTERM flushed.
      OTEL_BSP_SCHEDULE_DELAY: '600000',
    });
    const { job, webhook, secret } = await batchToWebhook(apps['translate-api']);

    const [, traceId, receivedParent] = webhook.headers.traceparent?.toString().match(TRACEPARENT) ?? [];
    expect(traceId, `traceparent of the webhook: ${webhook.headers.traceparent}`).toBeDefined();
    // The signature still holds: it covers the id, timestamp and body, not the trace headers.
    expect(() => new Webhook(secret).verify(webhook.body, webhook.headers as Record<string, string>)).not.toThrow();

    // The trace crossed Redis and the outbox as W3C trace context.
    expect((await batchJobData(job)).traceparent).toMatch(new RegExp(`^00-${traceId}-`));
    expect(await outboxTrace(job)).toEqual([{ job_name: 'TranslateBatchJob', traceparent: expect.stringMatching(new RegExp(`^00-${traceId}-`)), tracestate: null }]);

    // A URL that quotes a key, as a careless client's might: spans mask it as the logs do.
    await http(await apps['translate-api'].listening, 'GET', `/api/v1/batches/${job}?note=svc_live_Sup3rS3cret`);

    const logs = Object.fromEntries(SERVICES.map((service) => [service, tracedLines(apps[service])])) as Record<Service, Record<string, unknown>[]>;
    await stopAll();
    expect(collector.refused).toEqual([]);

    const trace = collector.spans.filter((span) => span.traceId === traceId);
    const spansOf = (service: Service) => trace.filter((span) => span.service === service);
    const describe = (spans: ReceivedSpan[]) => spans.map((span) => `${span.service}: ${span.name} (${span.kind})`).join('\n');
    expect(new Set(trace.map((span) => span.service)), describe(trace)).toEqual(new Set(SERVICES));

    // translate-api: the request is the trace's root, with its database and Redis work inside.
    const request = spansOf('translate-api').find((span) => span.kind === SPAN_KIND.server && span.attributes['http.route'] === '/api/v1/batches');
    expect(request, describe(trace)).toBeDefined();
    expect(request!.parentSpanId).toBeUndefined();
    expect(spansOf('translate-api').some((span) => span.attributes['db.system.name'] === 'postgresql'), describe(trace)).toBe(true);

    // batch-worker: the job's span is a child of a translate-api span, and calls the engine.
    const ids = (service: Service) => new Set(spansOf(service).map((span) => span.spanId));
    const batch = spansOf('batch-worker').find((span) => span.name === `process ${QueueName.Batches}`);
    expect(batch, describe(trace)).toMatchObject({ kind: SPAN_KIND.consumer, attributes: { 'messaging.destination.name': QueueName.Batches, 'bull.job.name': 'TranslateBatchJob' } });
    expect(ids('translate-api').has(batch!.parentSpanId!)).toBe(true);
    expect(spansOf('batch-worker').some((span) => span.kind === SPAN_KIND.client && String(span.attributes['url.full']).startsWith(engine.url)), describe(trace)).toBe(true);

    // webhook-dispatcher: the delivery's span is a child of a batch-worker span, and the
    // receiver's traceparent names a dispatcher span.
    const delivery = spansOf('webhook-dispatcher').find((span) => span.name === `process ${QueueName.Webhooks}`);
    expect(delivery, describe(trace)).toMatchObject({ kind: SPAN_KIND.consumer, attributes: { 'bull.job.name': 'DeliverWebhookJob' } });
    expect(ids('batch-worker').has(delivery!.parentSpanId!)).toBe(true);
    const post = spansOf('webhook-dispatcher').find((span) => span.spanId === receivedParent);
    expect(post, describe(trace)).toMatchObject({ kind: SPAN_KIND.client, parentSpanId: delivery!.spanId, attributes: { 'url.full': receiver.url } });

    // Log lines written inside the trace name it: the request's line, and each job's outcome.
    const requestLine = logs['translate-api'].find((line) => line.msg === 'request' && line.route === '/api/v1/batches');
    expect(requestLine).toMatchObject({ trace_id: traceId, span_id: expect.stringMatching(/^[0-9a-f]{16}$/) });
    expect(logs['batch-worker'].find((line) => line.msg === 'job completed' && line.jobId === `batch:${job}:0`)).toMatchObject({ trace_id: traceId, span_id: batch!.spanId });
    expect(logs['webhook-dispatcher'].find((line) => line.msg === 'job completed')).toMatchObject({ trace_id: traceId, span_id: delivery!.spanId });

    // Probes are not traced; no span holds a secret of a URL, ours or the receiver's.
    expect(collector.spans.filter((span) => span.attributes['url.path'] === '/health' || span.attributes['http.route'] === '/health')).toEqual([]);
    const masked = collector.spans.filter((span) => span.attributes['url.query'] === 'note=svc_live_***');
    expect(masked.map((span) => span.service)).toEqual(['translate-api', 'translate-api']);
    expect(JSON.stringify(collector.spans)).not.toMatch(/s3cr3t|svc_live_[A-Za-z0-9]/);
  });

  it('with OTEL_SDK_DISABLED=true exports nothing and adds trace context to no job, row, request or log line', { timeout: 180_000 }, async () => {
    const spansBefore = collector.spans.length;
    const apps = await startAll({ OTEL_EXPORTER_OTLP_ENDPOINT: collector.url, OTEL_EXPORTER_OTLP_PROTOCOL: 'http/json', OTEL_SDK_DISABLED: 'true' });
    const { job, webhook } = await batchToWebhook(apps['translate-api']);

    expect(webhook.headers.traceparent).toBeUndefined();
    expect(webhook.headers.tracestate).toBeUndefined();
    const data = await batchJobData(job);
    expect(data).not.toHaveProperty('traceparent');
    expect(data).not.toHaveProperty('tracestate');
    expect(await outboxTrace(job)).toEqual([{ job_name: 'TranslateBatchJob', traceparent: null, tracestate: null }]);
    for (const service of SERVICES) expect(tracedLines(apps[service])).toEqual([]);

    await stopAll();
    expect(collector.spans.length).toBe(spansBefore);
    expect(collector.refused).toEqual([]);
  });
});
