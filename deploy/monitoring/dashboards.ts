/**
 * The Grafana dashboards, one per product: the source of deploy/base/monitoring/dashboards/*.json
 * (`npm run monitoring` writes them). Panels use the metrics of docs/metrics.md and the series
 * the alert rules record; deploy's tests parse every query and check each metric it names.
 */

/** What a query may use besides PromQL: Grafana's variables, replaced before queries are checked. */
export const DASHBOARD_VARIABLES = { $__rate_interval: '5m', $namespace: '.*' } as const;

const NS = 'namespace=~"$namespace"';
const API = `${NS},route!~"/health.*|/metrics"`;
const RATE = '$__rate_interval';

interface Query {
  expr: string;
  legend: string;
}

interface PanelSpec {
  title: string;
  description: string;
  unit: string;
  queries: Query[];
  /** Bars for counts per interval, lines otherwise. */
  stacked?: boolean;
}

interface Row {
  title: string;
  panels: PanelSpec[];
}

const q = (expr: string, legend: string): Query => ({ expr, legend });

/** The three RED panels of HTTP services (`jobs` a regex of their names). */
function requestPanels(jobs: string): PanelSpec[] {
  const selector = `job=~"${jobs}",${API}`;
  return [
    {
      title: 'Requests by status class',
      description: 'API requests answered per second (probes and scrapes left out).',
      unit: 'reqps',
      stacked: true,
      queries: [q(`sum by (job, status_class) (rate(http_request_duration_seconds_count{${selector}}[${RATE}]))`, '{{job}} {{status_class}}')],
    },
    {
      title: 'Errors (5xx share)',
      description: 'Share of API requests answered with 5xx; HighErrorRatio fires above 5 %.',
      unit: 'percentunit',
      queries: [
        q(
          `sum by (job) (rate(http_request_duration_seconds_count{${selector},status_class="5xx"}[${RATE}])) / sum by (job) (rate(http_request_duration_seconds_count{${selector}}[${RATE}]))`,
          '{{job}}',
        ),
      ],
    },
    {
      title: 'Latency',
      description: '50th, 95th and 99th percentiles of API request duration.',
      unit: 's',
      queries: ['0.5', '0.95', '0.99'].map((quantile) =>
        q(`histogram_quantile(${quantile}, sum by (job, le) (rate(http_request_duration_seconds_bucket{${selector}}[${RATE}])))`, `{{job}} p${Number(quantile) * 100}`),
      ),
    },
    {
      title: 'Slowest routes (p95)',
      description: 'The 95th percentile of each route template: where the time goes.',
      unit: 's',
      queries: [q(`topk(5, histogram_quantile(0.95, sum by (job, route, le) (rate(http_request_duration_seconds_bucket{${selector}}[${RATE}]))))`, '{{job}} {{route}}')],
    },
    {
      title: 'Latency objective: slow share',
      description: 'Share of requests over the service\'s threshold (recorded by the alert rules); the objective allows 1 %.',
      unit: 'percentunit',
      queries: [q(`job:http_requests_slow:ratio_rate1h{${NS},job=~"${jobs}"}`, '{{job}} 1h'), q(`job:http_requests_slow:ratio_rate6h{${NS},job=~"${jobs}"}`, '{{job}} 6h')],
    },
  ];
}

/** Depth, age and outcomes of Bull queues; `outbox`: their jobs are queued through the outbox. */
function queuePanels(queues: string, { outbox = false } = {}): PanelSpec[] {
  const selector = `${NS},queue=~"${queues}"`;
  return [
    {
      title: 'Jobs by state',
      description: `Jobs per queue and state, as Redis holds them${outbox ? ', and those still in the outbox: they wait there while no consumer of their queue runs to relay them' : ''}.`,
      unit: 'short',
      queries: [
        q(`max by (queue, state) (queue_jobs{${selector}})`, '{{queue}} {{state}}'),
        ...(outbox ? [q(`max by (queue) (outbox_pending_jobs{${selector}})`, '{{queue}} in the outbox')] : []),
      ],
    },
    {
      title: 'Oldest waiting job',
      description: `How long the job that waited longest has been due${outbox ? ', on the queue or in the outbox' : ''}; QueueJobWaitingTooLong fires above 10 minutes.`,
      unit: 's',
      queries: [
        q(`max by (queue) (queue_oldest_waiting_job_age_seconds{${selector}})`, '{{queue}}'),
        ...(outbox ? [q(`max by (queue) (outbox_oldest_pending_job_age_seconds{${selector}})`, '{{queue}} in the outbox')] : []),
      ],
    },
    {
      title: 'Job outcomes',
      description: 'Jobs completed, retried, failed for good and stalled per second.',
      unit: 'ops',
      stacked: true,
      queries: (['completed', 'retried', 'failed', 'stalled'] as const).map((outcome) => q(`sum by (queue) (rate(jobs_${outcome}_total{${selector}}[${RATE}]))`, `{{queue}} ${outcome}`)),
    },
  ];
}

function databasePanels(jobs: string): PanelSpec[] {
  const selector = `${NS},job=~"${jobs}"`;
  return [
    {
      title: 'Postgres connections in use',
      description: 'Connections in use against the pool size, and requests waiting for one.',
      unit: 'short',
      queries: [
        q(`sum by (job, pool) (db_client_connections{${selector},state="used"})`, '{{job}} {{pool}} used'),
        q(`sum by (job, pool) (db_client_connections_max{${selector}})`, '{{job}} {{pool}} max'),
        q(`sum by (job, pool) (db_client_connection_pending_requests{${selector}})`, '{{job}} {{pool}} waiting'),
      ],
    },
    {
      title: 'Wait for a connection (p90)',
      description: 'PostgresPoolWaits fires above 100 ms.',
      unit: 's',
      queries: [q(`histogram_quantile(0.9, sum by (job, pool, le) (rate(db_client_connection_wait_time_seconds_bucket{${selector}}[${RATE}])))`, '{{job}} {{pool}}')],
    },
  ];
}

function podPanels(jobs: string): PanelSpec[] {
  const selector = `${NS},job=~"${jobs}"`;
  return [
    { title: 'Memory (resident)', description: 'Resident memory of each process.', unit: 'bytes', queries: [q(`process_resident_memory_bytes{${selector}}`, '{{job}} {{pod}}')] },
    { title: 'CPU', description: 'Cores each process uses.', unit: 'short', queries: [q(`rate(process_cpu_seconds_total{${selector}}[${RATE}])`, '{{job}} {{pod}}')] },
    { title: 'Event loop lag (p99)', description: 'How late timers run: a busy or blocked process.', unit: 's', queries: [q(`nodejs_eventloop_lag_p99_seconds{${selector}}`, '{{job}} {{pod}}')] },
  ];
}

function quotaPanel(limits: string): PanelSpec {
  return {
    title: 'Quota and rate limit refusals',
    description: 'Requests refused at each limit per second; QuotaRefusalsSpike fires on a jump.',
    unit: 'reqps',
    stacked: true,
    queries: [q(`sum by (limit) (rate(quota_refusals_total{${NS},limit=~"${limits}"}[${RATE}]))`, '{{limit}}')],
  };
}

const TRANSLATION: Row[] = [
  { title: 'API: translate-api and console', panels: requestPanels('translate-api|console') },
  { title: 'Queues', panels: queuePanels('translation-batches|webhook-deliveries', { outbox: true }) },
  {
    title: 'Batches',
    panels: [
      {
        title: 'Time to done (p50, p95)',
        description: 'From submission to done, by tier; review-tier jobs wait for their reviewers.',
        unit: 's',
        queries: ['0.5', '0.95'].map((quantile) =>
          q(`histogram_quantile(${quantile}, sum by (tier, le) (rate(translation_batch_duration_seconds_bucket{${NS},status="done"}[1h])))`, `{{tier}} p${Number(quantile) * 100}`),
        ),
      },
      {
        title: 'Batches finished',
        description: 'Batch jobs done and failed (refunded) per hour.',
        unit: 'short',
        stacked: true,
        queries: [q(`sum by (status) (increase(translation_batch_duration_seconds_count{${NS}}[1h]))`, '{{status}}')],
      },
    ],
  },
  {
    title: 'Engines',
    panels: [
      {
        title: 'Engine calls by outcome',
        description: 'Calls to each engine per second: ok, error, or the pair gone.',
        unit: 'ops',
        stacked: true,
        queries: [q(`sum by (engine, outcome) (rate(translation_engine_requests_total{${NS}}[${RATE}]))`, '{{engine}} {{outcome}}')],
      },
      {
        title: 'Engine latency (p95)',
        description: '95th percentile of a call to each engine.',
        unit: 's',
        queries: [q(`histogram_quantile(0.95, sum by (engine, le) (rate(translation_engine_request_duration_seconds_bucket{${NS}}[${RATE}])))`, '{{engine}}')],
      },
      {
        title: 'Failovers',
        description: 'Calls handed to the next engine after one failed.',
        unit: 'ops',
        queries: [q(`sum by (from, to) (rate(translation_engine_failovers_total{${NS}}[${RATE}]))`, '{{from}} → {{to}}')],
      },
      {
        title: 'Words translated',
        description: 'Source words per second, by engine.',
        unit: 'short',
        stacked: true,
        queries: [q(`sum by (engine) (rate(translation_words_total{${NS}}[${RATE}]))`, '{{engine}}')],
      },
    ],
  },
  {
    title: 'Webhooks',
    panels: [
      {
        title: 'Attempts by outcome',
        description: 'Delivery attempts per second: delivered, retried, refused (4xx), exhausted.',
        unit: 'ops',
        stacked: true,
        queries: [q(`sum by (outcome) (rate(webhook_attempts_total{${NS}}[${RATE}]))`, '{{outcome}}')],
      },
      {
        title: 'Attempt duration (p95)',
        description: "95th percentile of an attempt: the customers' receivers.",
        unit: 's',
        queries: [q(`histogram_quantile(0.95, sum by (le) (rate(webhook_attempt_duration_seconds_bucket{${NS}}[${RATE}])))`, 'p95')],
      },
      {
        title: 'Attempts postponed',
        description: 'Attempts put back unmade, by reason.',
        unit: 'ops',
        stacked: true,
        queries: [q(`sum by (reason) (rate(webhook_attempts_postponed_total{${NS}}[${RATE}]))`, '{{reason}}')],
      },
      {
        title: 'Endpoints with an open circuit',
        description: 'WebhookEndpointFailing fires when one stays open for 15 minutes.',
        unit: 'short',
        queries: [q(`max(webhook_circuits_open{${NS}})`, 'open')],
      },
    ],
  },
  { title: 'Quotas and Postgres', panels: [quotaPanel('key_.*|account_.*|sandbox_.*'), ...databasePanels('translate-api|batch-worker|webhook-dispatcher|console')] },
  { title: 'Processes', panels: podPanels('translate-api|batch-worker|webhook-dispatcher|console') },
];

const IMAGES: Row[] = [
  { title: 'API: image-api', panels: requestPanels('image-api') },
  {
    title: 'Conversions',
    panels: [
      {
        title: 'Conversions by format',
        description: 'Conversions counted against tokens per second: encoded, or served from storage.',
        unit: 'ops',
        stacked: true,
        queries: [q(`sum by (format, source) (rate(image_conversions_total{${NS}}[${RATE}]))`, '{{format}} {{source}}')],
      },
      {
        title: 'Encoding time (p50, p95)',
        description: 'Decoding, resizing and encoding one image, by output format (image-api and image-worker).',
        unit: 's',
        queries: ['0.5', '0.95'].map((quantile) =>
          q(`histogram_quantile(${quantile}, sum by (format, le) (rate(image_encode_duration_seconds_bucket{${NS}}[${RATE}])))`, `{{format}} p${Number(quantile) * 100}`),
        ),
      },
      {
        title: 'Pixels encoded',
        description: 'Megapixels per second encoded, by output format and service.',
        unit: 'short',
        stacked: true,
        queries: [q(`sum by (job, format) (rate(image_encoded_pixels_total{${NS}}[${RATE}])) / 1e6`, '{{job}} {{format}}')],
      },
      {
        title: 'Encoding speed',
        description: 'Megapixels encoded per second of encoding: falls when images get harder or CPU scarce.',
        unit: 'short',
        queries: [
          q(`sum by (format) (rate(image_encoded_pixels_total{${NS}}[${RATE}])) / sum by (format) (rate(image_encode_duration_seconds_sum{${NS}}[${RATE}])) / 1e6`, '{{format}}'),
        ],
      },
      {
        title: 'Memory handed back',
        description: 'Times freed native memory was returned to the system, and whether there was any.',
        unit: 'ops',
        queries: [q(`sum by (job, released) (rate(image_heap_trims_total{${NS}}[${RATE}]))`, '{{job}} released={{released}}')],
      },
    ],
  },
  {
    title: 'Variants',
    panels: [...queuePanels('image-variants'), { title: 'Variants given up', description: 'ImageVariantsFailed fires above 0.', unit: 'short', queries: [q(`max(image_variants_failed{${NS}})`, 'given up')] }],
  },
  {
    title: 'Storage',
    panels: [
      {
        title: 'S3 requests by outcome',
        description: 'Requests to the store per second by operation and outcome; S3Errors fires on 5 % server errors or no answer.',
        unit: 'reqps',
        stacked: true,
        queries: [q(`sum by (operation, outcome) (rate(s3_requests_total{${NS}}[${RATE}]))`, '{{operation}} {{outcome}}')],
      },
      {
        title: 'S3 latency (p95)',
        description: '95th percentile of a request to the store, by operation.',
        unit: 's',
        queries: [q(`histogram_quantile(0.95, sum by (operation, le) (rate(s3_request_duration_seconds_bucket{${NS}}[${RATE}])))`, '{{operation}}')],
      },
    ],
  },
  { title: 'Quotas and Postgres', panels: [quotaPanel('token_.*'), ...databasePanels('image-api|image-worker')] },
  { title: 'Processes', panels: podPanels('image-api|image-worker') },
];

const PANEL_WIDTH = 8;
const PANEL_HEIGHT = 8;

function timeseries(spec: PanelSpec, id: number, x: number, y: number) {
  return {
    id,
    type: 'timeseries',
    title: spec.title,
    description: spec.description,
    datasource: { type: 'prometheus', uid: '${datasource}' },
    gridPos: { h: PANEL_HEIGHT, w: PANEL_WIDTH, x, y },
    fieldConfig: {
      defaults: {
        unit: spec.unit,
        custom: spec.stacked ? { drawStyle: 'bars', stacking: { mode: 'normal' }, fillOpacity: 60 } : { drawStyle: 'line', fillOpacity: 10 },
      },
      overrides: [],
    },
    options: { legend: { displayMode: 'list', placement: 'bottom' }, tooltip: { mode: 'multi' } },
    targets: spec.queries.map((query, index) => ({
      refId: String.fromCharCode(65 + index),
      datasource: { type: 'prometheus', uid: '${datasource}' },
      expr: query.expr,
      legendFormat: query.legend,
    })),
  };
}

/** A Grafana dashboard (JSON model, schema 39): a row per area, three panels a line. */
function dashboard(uid: string, title: string, rows: Row[]) {
  const panels: object[] = [];
  let y = 0;
  for (const row of rows) {
    panels.push({ id: panels.length + 1, type: 'row', title: row.title, collapsed: false, gridPos: { h: 1, w: 24, x: 0, y }, panels: [] });
    y += 1;
    row.panels.forEach((spec, index) => {
      const column = index % (24 / PANEL_WIDTH);
      if (index > 0 && column === 0) y += PANEL_HEIGHT;
      panels.push(timeseries(spec, panels.length + 1, column * PANEL_WIDTH, y));
    });
    y += PANEL_HEIGHT;
  }
  return {
    uid,
    title,
    tags: ['eu-platform'],
    timezone: 'utc',
    editable: true,
    schemaVersion: 39,
    version: 1,
    refresh: '1m',
    time: { from: 'now-6h', to: 'now' },
    templating: {
      list: [
        { name: 'datasource', label: 'Prometheus', type: 'datasource', query: 'prometheus', current: {}, hide: 0 },
        {
          name: 'namespace',
          label: 'Namespace',
          type: 'query',
          datasource: { type: 'prometheus', uid: '${datasource}' },
          query: { query: 'label_values(http_request_duration_seconds_count, namespace)', refId: 'namespaces' },
          definition: 'label_values(http_request_duration_seconds_count, namespace)',
          refresh: 2,
          includeAll: true,
          // Matches series without a namespace too (a Prometheus outside Kubernetes).
          allValue: '.*',
          current: {},
          hide: 0,
        },
      ],
    },
    annotations: { list: [] },
    panels,
  };
}

/** The dashboards by file name, under deploy/base/monitoring/dashboards/. */
export const DASHBOARDS = {
  'translation.json': dashboard('eu-platform-translation', 'EU platform: translation', TRANSLATION),
  'images.json': dashboard('eu-platform-images', 'EU platform: images', IMAGES),
};
