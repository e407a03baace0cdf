/**
 * The platform's Prometheus alert and recording rules: the one source of
 * deploy/monitoring/prometheus-rules.yaml (a plain rules file, for promtool and a Prometheus
 * without the operator) and deploy/base/monitoring/prometheus-rule.yaml (the same groups as a
 * PrometheusRule). After a change here run `npm run monitoring`; deploy's tests fail while the two
 * files differ from what this gives, and run promtool's checks and unit tests on the rules.
 *
 * Every alert names a section of docs/operations.md in its runbook_url: what it means, how to
 * check, what to do.
 */

/** Where on-call reads docs/operations.md; each alert links to its section there. Point it at your copy. */
export const RUNBOOK_BASE_URL = 'https://docs.example.com/eu-platform/operations.md';

/** The services' container names, as kube-state-metrics and cAdvisor label their series. */
const CONTAINERS = 'translate-api|batch-worker|webhook-dispatcher|image-api|image-worker|console';
/** Requests that are not the API's: probes and scrapes. */
const API_ROUTES = 'route!~"/health.*|/metrics"';

/**
 * The latency objectives: 99 % of a service's API requests answered within its threshold (a
 * bucket bound of `http_request_duration_seconds`). Conversions of large images take seconds,
 * translations and console calls much less.
 */
export const LATENCY_SLOS = [
  { job: 'translate-api', seconds: '2.5' },
  { job: 'image-api', seconds: '10' },
  { job: 'console', seconds: '1' },
] as const;
/** The share of requests allowed over the threshold: the error budget of a 99 % objective. */
const LATENCY_BUDGET = 0.01;
/** The windows of the burn-rate alerts (the SRE workbook's multiwindow, multi-burn-rate alerts). */
const SLO_WINDOWS = ['5m', '30m', '1h', '6h'] as const;
const slowRatio = (window: (typeof SLO_WINDOWS)[number]) => `job:http_requests_slow:ratio_rate${window}`;

export type Severity = 'critical' | 'warning';

export interface AlertRule {
  alert: string;
  expr: string;
  for?: string;
  labels: { severity: Severity };
  annotations: { summary: string; description: string; runbook_url: string };
}

export interface RecordingRule {
  record: string;
  expr: string;
  labels?: Record<string, string>;
}

export interface RuleGroup {
  name: string;
  rules: (AlertRule | RecordingRule)[];
}

interface AlertSpec {
  expr: string;
  for?: string;
  severity: Severity;
  summary: string;
  description: string;
}

/** An alert whose runbook is the section of docs/operations.md headed by its name. */
function alert(name: string, spec: AlertSpec): AlertRule {
  return {
    alert: name,
    expr: spec.expr,
    ...(spec.for && { for: spec.for }),
    labels: { severity: spec.severity },
    annotations: { summary: spec.summary, description: spec.description, runbook_url: `${RUNBOOK_BASE_URL}#${name.toLowerCase()}` },
  };
}

const apiRequests = (selector: string, window: string) => `sum by (namespace, job) (rate(http_request_duration_seconds_count{${selector}}[${window}]))`;

function slowRequestRecords(): RecordingRule[] {
  return SLO_WINDOWS.flatMap((window) =>
    LATENCY_SLOS.map(({ job, seconds }) => {
      const selector = `job="${job}",${API_ROUTES}`;
      const fast = `sum by (namespace, job) (rate(http_request_duration_seconds_bucket{${selector},le="${seconds}"}[${window}]))`;
      return {
        record: slowRatio(window),
        expr: `(${apiRequests(selector, window)} - ${fast}) / ${apiRequests(selector, window)}`,
        labels: { slo_threshold_seconds: seconds },
      };
    }),
  );
}

function burnRate(name: string, severity: Severity, factor: number, [long, short]: [string, string], forDuration: string): AlertRule {
  const threshold = `(${factor} * ${LATENCY_BUDGET})`;
  return alert(name, {
    expr: `${slowRatio(long as (typeof SLO_WINDOWS)[number])} > ${threshold} and ${slowRatio(short as (typeof SLO_WINDOWS)[number])} > ${threshold}`,
    for: forDuration,
    severity,
    summary: `{{ $labels.job }} answers too slowly: its latency budget burns ${factor} times too fast`,
    description:
      `Over the last ${long} and the last ${short}, {{ $value | humanizePercentage }} of {{ $labels.job }}'s API requests in {{ $labels.namespace }} took longer than ` +
      `{{ $labels.slo_threshold_seconds }} s, where the objective allows 1 %. At this pace the month's budget lasts ${Math.round((30 * 24) / factor)} hours.`,
  });
}

export const RULE_GROUPS: RuleGroup[] = [
  {
    name: 'eu-platform.slo',
    rules: [
      ...slowRequestRecords(),
      burnRate('LatencyBudgetBurningFast', 'critical', 14.4, ['1h', '5m'], '2m'),
      burnRate('LatencyBudgetBurningSlowly', 'warning', 6, ['6h', '30m'], '15m'),
    ],
  },
  {
    name: 'eu-platform.http',
    rules: [
      alert('HighErrorRatio', {
        expr: `${apiRequests(`status_class="5xx",${API_ROUTES}`, '5m')} / ${apiRequests(API_ROUTES, '5m')} > 0.05 and ${apiRequests(API_ROUTES, '5m')} > 0.2`,
        for: '5m',
        severity: 'critical',
        summary: '{{ $labels.job }} answers {{ $value | humanizePercentage }} of its requests with 5xx',
        description: 'More than 5 % of the API requests to {{ $labels.job }} in {{ $labels.namespace }} got a 5xx answer over the last 5 minutes, for 5 minutes.',
      }),
      alert('PostgresPoolWaits', {
        expr: 'histogram_quantile(0.9, sum by (namespace, job, pool, le) (rate(db_client_connection_wait_time_seconds_bucket[5m]))) > 0.1',
        for: '10m',
        severity: 'warning',
        summary: "{{ $labels.job }} waits for connections of its Postgres pool",
        description: 'For 10 minutes one request in ten of {{ $labels.job }} in {{ $labels.namespace }} has waited {{ $value | humanizeDuration }} or more for a connection of its {{ $labels.pool }} pool.',
      }),
    ],
  },
  {
    name: 'eu-platform.queues',
    rules: [
      // Jobs wait on their Bull queue (exported by the processes that register it) or in the
      // outbox (exported by those that write it): the jobs of a queue stay there while no process
      // that consumes the queue, and so relays its rows, runs, and the queue's own gauges are gone.
      alert('QueueBacklogGrowing', {
        expr: `max by (namespace, queue) (queue_jobs{state="waiting"} or outbox_pending_jobs) > 100 and max by (namespace, queue) (deriv(queue_jobs{state="waiting"}[15m]) or deriv(outbox_pending_jobs[15m])) > 0`,
        for: '15m',
        severity: 'warning',
        summary: 'The {{ $labels.queue }} queue grows: {{ $value }} jobs wait',
        description:
          'More than 100 jobs wait in {{ $labels.queue }} in {{ $labels.namespace }}, on the queue or in the outbox, and their number has kept growing for 15 minutes: the workers do not keep up, or none runs.',
      }),
      alert('QueueJobWaitingTooLong', {
        expr: 'max by (namespace, queue) (queue_oldest_waiting_job_age_seconds or outbox_oldest_pending_job_age_seconds) > 600',
        for: '5m',
        severity: 'warning',
        summary: 'A job of {{ $labels.queue }} has waited {{ $value | humanizeDuration }}',
        description: 'The oldest waiting job of {{ $labels.queue }} in {{ $labels.namespace }}, on the queue or in the outbox, has been due for more than 10 minutes: no worker takes jobs, or too few.',
      }),
      alert('JobsStalled', {
        expr: 'sum by (namespace, queue) (increase(jobs_stalled_total[15m])) > 0',
        severity: 'warning',
        summary: 'Jobs of {{ $labels.queue }} stalled: a worker died or hung while running them',
        description: 'Jobs of {{ $labels.queue }} in {{ $labels.namespace }} lost their worker in the last 15 minutes ({{ $value | humanize }}) and were queued again by the stall check.',
      }),
      alert('ImageVariantsFailed', {
        expr: 'max by (namespace) (image_variants_failed) > 0',
        for: '5m',
        severity: 'warning',
        summary: 'Image variants given up: {{ $value }}',
        description: 'image-worker in {{ $labels.namespace }} gave variants up after VARIANT_MAX_ROUNDS rounds of failed attempts ({{ $value }}); their sources are kept.',
      }),
    ],
  },
  {
    name: 'eu-platform.webhooks',
    rules: [
      alert('WebhookEndpointFailing', {
        expr: 'max by (namespace) (webhook_circuits_open) > 0',
        for: '15m',
        severity: 'warning',
        summary: "Customers' webhook endpoints failing for 15 minutes: {{ $value }}",
        description: 'Webhook endpoints in {{ $labels.namespace }} whose circuit has stayed open for 15 minutes: {{ $value }}. Their receivers fail or do not answer, and their deliveries wait.',
      }),
      alert('WebhookDeliveriesExhausted', {
        expr: 'sum by (namespace) (increase(webhook_attempts_total{outcome="exhausted"}[30m])) > 0',
        severity: 'warning',
        summary: 'Webhook deliveries failed for good after every retry',
        description: 'Webhook events in {{ $labels.namespace }} used up their retry schedule in the last 30 minutes without reaching their receiver ({{ $value | humanize }}).',
      }),
    ],
  },
  {
    name: 'eu-platform.engines',
    rules: [
      alert('TranslationEngineDown', {
        expr:
          'sum by (namespace, engine) (rate(translation_engine_requests_total{outcome="error"}[5m])) / sum by (namespace, engine) (rate(translation_engine_requests_total[5m])) > 0.5',
        for: '5m',
        severity: 'critical',
        summary: 'The translation engine {{ $labels.engine }} fails {{ $value | humanizePercentage }} of its calls',
        description: 'More than half of the calls to {{ $labels.engine }} in {{ $labels.namespace }} failed over the last 5 minutes, for 5 minutes. Pairs another engine has go there; the others answer 503.',
      }),
      alert('TranslationEngineFailoverInUse', {
        expr: 'sum by (namespace, from, to) (rate(translation_engine_failovers_total[5m])) > 0',
        for: '10m',
        severity: 'warning',
        summary: 'Translations go to {{ $labels.to }} because {{ $labels.from }} fails',
        description: 'For 10 minutes calls that {{ $labels.from }} failed in {{ $labels.namespace }} have been handed to {{ $labels.to }}: slower, other quality or other costs.',
      }),
    ],
  },
  {
    name: 'eu-platform.quotas',
    rules: [
      alert('QuotaRefusalsSpike', {
        expr:
          'sum by (namespace, limit) (rate(quota_refusals_total[10m])) > 0.2 and sum by (namespace, limit) (rate(quota_refusals_total[10m])) > 5 * sum by (namespace, limit) (rate(quota_refusals_total[6h] offset 10m))',
        for: '10m',
        severity: 'warning',
        summary: 'Requests refused at {{ $labels.limit }}: {{ $value | humanize }} a second',
        description: 'Refusals at the {{ $labels.limit }} limit in {{ $labels.namespace }} run at more than five times their rate of the six hours before, for 10 minutes.',
      }),
    ],
  },
  {
    name: 'eu-platform.storage',
    rules: [
      alert('S3Errors', {
        expr:
          'sum by (namespace, job) (rate(s3_requests_total{outcome=~"server_error|unreachable"}[5m])) / sum by (namespace, job) (rate(s3_requests_total[5m])) > 0.05',
        for: '5m',
        severity: 'critical',
        summary: '{{ $labels.job }} gets no answer or 5xx from S3 for {{ $value | humanizePercentage }} of its requests',
        description: 'More than 5 % of the requests of {{ $labels.job }} in {{ $labels.namespace }} to the S3-compatible store failed on its side or got no answer, for 5 minutes. Conversions answer 503.',
      }),
    ],
  },
  {
    name: 'eu-platform.pods',
    rules: [
      alert('MemoryNearLimit', {
        expr: `max by (namespace, pod, container) (container_memory_working_set_bytes{container=~"${CONTAINERS}"}) / max by (namespace, pod, container) (kube_pod_container_resource_limits{resource="memory",container=~"${CONTAINERS}"}) > 0.9`,
        for: '15m',
        severity: 'warning',
        summary: '{{ $labels.pod }} uses {{ $value | humanizePercentage }} of its memory limit',
        description: 'The {{ $labels.container }} container of {{ $labels.pod }} in {{ $labels.namespace }} has used more than 90 % of its memory limit for 15 minutes; at the limit the kernel kills it.',
      }),
      alert('PodsRestarting', {
        expr: `sum by (namespace, pod, container) (increase(kube_pod_container_status_restarts_total{container=~"${CONTAINERS}"}[30m])) > 2`,
        severity: 'warning',
        summary: '{{ $labels.pod }} restarted {{ $value | humanize }} times in 30 minutes',
        description: 'The {{ $labels.container }} container of {{ $labels.pod }} in {{ $labels.namespace }} restarted more than twice in the last 30 minutes.',
      }),
    ],
  },
];
