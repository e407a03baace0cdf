import { ScaledObject, TriggerAuthentication } from '@kubernetes-models/keda/keda.sh/v1alpha1';
import { PrometheusRule, ServiceMonitor } from '@kubernetes-models/prometheus-operator/monitoring.coreos.com/v1';
import type { ServiceName } from '@platform/contracts';
import { ServiceConfig } from '@platform/service-kit';
import { HorizontalPodAutoscaler } from 'kubernetes-models/autoscaling/v2';
import { PodDisruptionBudget } from 'kubernetes-models/policy/v1';
import { ConfigMap, type IProbe, Namespace, Secret, Service } from 'kubernetes-models/v1';
import { readdirSync, readFileSync } from 'node:fs';
import { describe, expect, it } from 'vitest';
import { parse } from 'yaml';
import { schemaViolation } from './kubernetes-schemas';
import { coversPort, egressAllows, isolating } from './network-reach';
import {
  containerEnv,
  type EnvSource,
  idOf,
  kubectlVersion,
  literal,
  ofKind,
  portNumber,
  quantity,
  render,
  selects,
  serviceOf,
  type ServicePod,
  workloadsOf,
} from './rendered-manifests';
import { bullWaitList, HEALTH_PATH, LIVENESS_PATH, SERVICES } from './service-contract';

const ENVIRONMENTS = ['staging', 'production'];
/** The numeric user docker/Dockerfile runs the services as; pods must run as the same. */
const IMAGE_USER = Number(/^USER (\d+):\d+$/m.exec(readFileSync(new URL('../../docker/Dockerfile', import.meta.url), 'utf8'))![1]);
const SERVICE_NAMES = Object.keys(SERVICES) as ServiceName[];
/** The folder of each environment that holds its namespace-wide objects. */
const PLATFORM_FOLDER = 'platform';
/** And the one with the alert rules and dashboards. */
const MONITORING_FOLDER = 'monitoring';

/** Variables that carry credentials: they may only come from Secrets. */
const CREDENTIALS = ['DATABASE_URL', 'IMAGE_DATABASE_URL', 'REDIS_URL', 'S3_ACCESS_KEY_ID', 'S3_SECRET_ACCESS_KEY', 'DEEPL_API_KEY', 'LIBRETRANSLATE_API_KEY', 'SMTP_URL'];

/**
 * Settings of one process. Any other variable set on several services (prices, engine, bucket,
 * image limits, webhook allow-list, credentials) describes shared data and must agree.
 */
const PER_PROCESS = new Set([
  'PORT',
  'HOST',
  'LOG_LEVEL',
  'SHUTDOWN_TIMEOUT_MS',
  'DATABASE_POOL_SIZE',
  'WORKER_CONCURRENCY',
  'SHARP_CONCURRENCY',
  'APERTIUM_PIPELINES_PER_MODE',
  'APERTIUM_REQUESTS_PER_PIPELINE',
  'OPENAPI_ENABLED',
  'TLS_CERT_FILE',
  'TLS_KEY_FILE',
]);

const DEFAULTS = new ServiceConfig();
/** Kubernetes' grace period when a pod names none. */
const DEFAULT_GRACE_SECONDS = 30;
const CLOUD_METADATA = '169.254.169.254';
const PUBLIC_ADDRESS = '203.0.113.10';
const CLUSTER_ADDRESS = '10.20.30.40';

const describeSource = (source: EnvSource) => ('secret' in source ? `secret ${source.secret}/${source.key}` : source.value);

const kubectl = kubectlVersion();
if (!kubectl) console.warn('kubectl is not installed: the Kubernetes manifest checks are skipped (kubectl kustomize renders the overlays)');

describe.skipIf(!kubectl)(`Kubernetes manifests (${kubectl ?? 'skipped: kubectl is not installed'})`, () => {
  it('gives each environment a namespace of its own', () => {
    const namespaces = ENVIRONMENTS.map((environment) => ofKind(render(`overlays/${environment}`), Namespace.is).map((namespace) => namespace.metadata?.name));
    expect(namespaces.map((names) => names.length)).toEqual(ENVIRONMENTS.map(() => 1));
    expect(new Set(namespaces.flat()).size).toBe(ENVIRONMENTS.length);
  });

  describe.each(ENVIRONMENTS)('overlay %s', (environment) => {
    const whole = () => render(`overlays/${environment}`);
    const environmentEnv = () =>
      SERVICE_NAMES.flatMap((service) => workloadsOf(whole(), service).pods.map((pod) => ({ service, pod, env: containerEnv(pod.container, whole()) })));

    it('renders only objects that the Kubernetes and KEDA schemas accept', () => {
      const violations = whole()
        .map((object) => [idOf(object), schemaViolation(object)])
        .filter(([, violation]) => violation);
      expect(violations).toEqual([]);
    });

    it('is the sum of its folders, each of which renders alone', () => {
      const parts = [PLATFORM_FOLDER, MONITORING_FOLDER, ...SERVICE_NAMES].flatMap((folder) => render(`overlays/${environment}/${folder}`).map(idOf));
      expect(whole().map(idOf).sort()).toEqual(parts.sort());
    });

    it("puts every object in the environment's namespace", () => {
      const [namespace] = ofKind(whole(), Namespace.is);
      const elsewhere = whole().filter((object) => !Namespace.is(object) && object.metadata.namespace !== namespace.metadata?.name);
      expect(elsewhere.map(idOf)).toEqual([]);
    });

    it('renders no Secret and no credential in a ConfigMap: Secrets are created by the operator and only referenced', () => {
      expect(ofKind(whole(), Secret.is).map(idOf)).toEqual([]);
      const exposed = ofKind(whole(), ConfigMap.is).flatMap((configMap) =>
        Object.keys(configMap.data ?? {})
          .filter((key) => CREDENTIALS.includes(key))
          .map((key) => `${idOf(configMap)} ${key}`),
      );
      expect(exposed).toEqual([]);
    });

    it('gives a setting that several services read one value everywhere', () => {
      const values = new Map<string, Set<string>>();
      for (const { env } of environmentEnv()) {
        for (const [name, source] of env) {
          if (PER_PROCESS.has(name)) continue;
          values.set(name, (values.get(name) ?? new Set()).add(describeSource(source)));
        }
      }
      const disagreeing = [...values].filter(([, seen]) => seen.size > 1).map(([name, seen]) => `${name}: ${[...seen].join(' | ')}`);
      expect(disagreeing).toEqual([]);
    });

    it('runs in production mode, with HTTPS reaching the APIs through trusted proxies or their own TLS', () => {
      for (const { service, env } of environmentEnv().filter(({ pod }) => pod.owner.kind === 'Deployment')) {
        expect(literal(env, 'NODE_ENV', DEFAULTS.NODE_ENV), service).toBe('production');
        const ownTls = env.has('TLS_CERT_FILE') && env.has('TLS_KEY_FILE');
        if (SERVICES[service].api) expect(ownTls || literal(env, 'TRUSTED_PROXIES', '') !== '', `${service} would refuse every request`).toBe(true);
      }
    });

    it('holds the alert rules of deploy/monitoring/prometheus-rules.yaml, the file promtool tests, in its monitoring folder', () => {
      const rules = ofKind(render(`overlays/${environment}/${MONITORING_FOLDER}`), PrometheusRule.is);
      const plain = parse(readFileSync(new URL('../monitoring/prometheus-rules.yaml', import.meta.url), 'utf8'));
      expect(rules.map((rule) => rule.spec)).toEqual([plain]);
    });

    it("gives Grafana's sidecar each dashboard of deploy/base/monitoring/dashboards as a labelled ConfigMap", () => {
      const dashboards = ofKind(render(`overlays/${environment}/${MONITORING_FOLDER}`), ConfigMap.is).filter((configMap) => configMap.metadata?.labels?.grafana_dashboard === '1');
      const files = Object.fromEntries(dashboards.flatMap((configMap) => Object.entries(configMap.data ?? {})));
      const dir = new URL('../base/monitoring/dashboards/', import.meta.url);
      expect(Object.keys(files).sort()).toEqual(readdirSync(dir).sort());
      for (const [file, text] of Object.entries(files)) expect(text, file).toBe(readFileSync(new URL(file, dir), 'utf8'));
    });

    it('gives image-api room in /tmp for the uploads one pod accepts at once', () => {
      const objects = render(`overlays/${environment}/image-api`);
      const [pod] = workloadsOf(objects, 'image-api').pods.filter(({ owner }) => owner.kind === 'Deployment');
      const env = containerEnv(pod.container, objects);
      // Each request keeps up to a full batch (10 files) on disk until it is answered.
      const uploadBytes = Number(literal(env, 'CONCURRENT_REQUESTS_PER_PROCESS', '16')) * 10 * Number(literal(env, 'MAX_FILE_BYTES', String(25 * 1024 * 1024)));
      const tmp = pod.container.volumeMounts?.find((mount) => mount.mountPath === '/tmp');
      const sizeLimit = pod.template.spec?.volumes?.find((volume) => volume.name === tmp?.name)?.emptyDir?.sizeLimit;
      expect(quantity(sizeLimit ?? 0)).toBeGreaterThanOrEqual(uploadBytes);
    });

    describe.each(SERVICE_NAMES)('%s', (service) => {
      const contract = SERVICES[service];
      const objects = () => render(`overlays/${environment}/${service}`);
      const workloads = () => workloadsOf(objects(), service);
      const deployment = () => {
        const { deployments } = workloads();
        expect(deployments).toHaveLength(1);
        return deployments[0];
      };
      const server = (): ServicePod => workloads().pods.find((pod) => pod.owner === deployment())!;
      const envOf = (pod: ServicePod) => containerEnv(pod.container, objects());

      it('renders only objects of its own', () => {
        const foreign = objects().filter((object) => serviceOf(object) !== service);
        expect(foreign.map(idOf)).toEqual([]);
      });

      it('serves from its own image, with a release tag', () => {
        const { container } = server();
        expect(container.image).toMatch(new RegExp(`(^|/)eu-platform/${service}:[\\w][\\w.-]*$`));
        expect(container.image).not.toMatch(/:latest$/);
        expect(container.args).toEqual(['serve']);
      });

      it('listens on its port on every interface, where its Service and scrape annotation look', () => {
        const { container, template } = server();
        const env = envOf(server());
        expect(container.ports?.map((port) => port.containerPort)).toEqual([contract.port]);
        expect(Number(literal(env, 'PORT', String(contract.port)))).toBe(contract.port);
        expect(['0.0.0.0', '::']).toContain(literal(env, 'HOST', DEFAULTS.HOST));
        expect(template.metadata?.annotations?.['prometheus.io/port']).toBe(String(contract.port));

        const services = ofKind(objects(), Service.is).filter((candidate) => selects(candidate.spec?.selector, template.metadata?.labels));
        expect(services.length).toBeGreaterThan(0);
        for (const candidate of services) {
          for (const port of candidate.spec!.ports!) expect(portNumber(container, port.targetPort ?? port.port)).toBe(contract.port);
          for (const job of workloads().jobs) expect(selects(candidate.spec?.selector, job.spec?.template.metadata?.labels)).toBe(false);
        }
      });

      it(`has startup and liveness probes on ${LIVENESS_PATH} and readiness on ${HEALTH_PATH}, on its port`, () => {
        const { container } = server();
        // Readiness is what takes a pod whose dependencies are down out of its Service; liveness
        // must not restart pods for an outage a restart cannot cure.
        const probes: [string, IProbe | undefined, string][] = [
          ['startup', container.startupProbe, LIVENESS_PATH],
          ['liveness', container.livenessProbe, LIVENESS_PATH],
          ['readiness', container.readinessProbe, HEALTH_PATH],
        ];
        for (const [kind, probe, path] of probes) {
          expect(probe?.httpGet, `${kind} probe`).toBeDefined();
          expect(portNumber(container, probe!.httpGet!.port), `${kind} probe port`).toBe(contract.port);
          expect(probe!.httpGet!.path, `${kind} probe path`).toBe(path);
        }
      });

      it('sets only environment variables the service reads', () => {
        for (const pod of workloads().pods) {
          const unknown = [...envOf(pod).keys()].filter((name) => !contract.env.includes(name));
          expect(unknown, `${idOf(pod.owner)} sets variables ${service} does not read`).toEqual([]);
        }
      });

      it('takes credentials from Secrets only', () => {
        for (const pod of workloads().pods) {
          const literals = [...envOf(pod)].filter(([name, source]) => CREDENTIALS.includes(name) && !('secret' in source)).map(([name]) => name);
          expect(literals, idOf(pod.owner)).toEqual([]);
        }
        expect(envOf(server()).get('DATABASE_URL')).toHaveProperty('secret');
      });

      it('runs every pod as a non-root user without privileges, on a read-only root filesystem with a writable /tmp', () => {
        for (const { owner, template, container } of workloads().pods) {
          const pod = template.spec!;
          expect(pod.securityContext, idOf(owner)).toMatchObject({ runAsNonRoot: true, runAsUser: IMAGE_USER, seccompProfile: { type: 'RuntimeDefault' } });
          expect(container.securityContext, idOf(owner)).toMatchObject({ allowPrivilegeEscalation: false, readOnlyRootFilesystem: true });
          expect(container.securityContext?.capabilities?.drop, idOf(owner)).toContain('ALL');
          const tmp = container.volumeMounts?.find((mount) => mount.mountPath === '/tmp');
          expect(pod.volumes?.find((volume) => volume.name === tmp?.name)?.emptyDir, `${idOf(owner)} /tmp`).toBeDefined();
        }
      });

      it('requests and limits CPU and memory for every pod, requests within limits', () => {
        for (const { owner, container } of workloads().pods) {
          for (const resource of ['cpu', 'memory']) {
            const request = container.resources?.requests?.[resource];
            const limit = container.resources?.limits?.[resource];
            expect(request, `${idOf(owner)} ${resource} request`).toBeDefined();
            expect(limit, `${idOf(owner)} ${resource} limit`).toBeDefined();
            expect(quantity(request!), `${idOf(owner)} ${resource}`).toBeLessThanOrEqual(quantity(limit!));
          }
        }
      });

      it('gives a shutdown its preStop pause and SHUTDOWN_TIMEOUT_MS within the grace period', () => {
        const { template, container } = server();
        const shutdownSeconds = Number(literal(envOf(server()), 'SHUTDOWN_TIMEOUT_MS', String(DEFAULTS.SHUTDOWN_TIMEOUT_MS))) / 1000;
        const preStopSeconds = container.lifecycle?.preStop?.sleep?.seconds ?? 0;
        expect(template.spec?.terminationGracePeriodSeconds ?? DEFAULT_GRACE_SECONDS).toBeGreaterThan(preStopSeconds + shutdownSeconds);
      });

      it('lets disruptions take one pod at a time and never counts Job pods', () => {
        const labels = server().template.metadata?.labels;
        const budgets = ofKind(objects(), PodDisruptionBudget.is).filter((budget) => selects(budget.spec?.selector?.matchLabels, labels));
        expect(budgets.map((budget) => budget.spec?.maxUnavailable)).toEqual([1]);
        for (const job of workloads().jobs) expect(selects(budgets[0].spec?.selector?.matchLabels, job.spec?.template.metadata?.labels)).toBe(false);
      });

      it('leaves the replica count to its autoscaler', () => {
        expect(deployment().spec?.replicas).toBeUndefined();
      });

      if (contract.api) {
        it('scales on CPU with a HorizontalPodAutoscaler and no KEDA', () => {
          const autoscalers = ofKind(objects(), HorizontalPodAutoscaler.is);
          expect(autoscalers.map((hpa) => hpa.spec?.scaleTargetRef)).toEqual([{ apiVersion: 'apps/v1', kind: 'Deployment', name: deployment().metadata?.name }]);
          expect(autoscalers[0].spec!.minReplicas!).toBeGreaterThanOrEqual(1);
          expect(autoscalers[0].spec!.maxReplicas).toBeGreaterThanOrEqual(autoscalers[0].spec!.minReplicas!);
          expect(ofKind(objects(), ScaledObject.is)).toEqual([]);
        });
      } else {
        it(`scales with KEDA on the Bull list of waiting ${contract.queue} jobs, never to zero`, () => {
          const scaled = ofKind(objects(), ScaledObject.is);
          expect(scaled).toHaveLength(1);
          const spec = scaled[0].spec!;
          expect(spec.scaleTargetRef.name).toBe(deployment().metadata?.name);
          expect(spec.minReplicaCount).toBeGreaterThanOrEqual(1);
          expect(spec.maxReplicaCount).toBeGreaterThanOrEqual(spec.minReplicaCount!);
          expect(spec.triggers.map((trigger) => [trigger.type, trigger.metadata.listName])).toEqual([['redis', bullWaitList(contract.queue!)]]);

          const authentication = ofKind(objects(), TriggerAuthentication.is).find((candidate) => candidate.metadata?.name === spec.triggers[0].authenticationRef?.name);
          const parameters = authentication?.spec?.secretTargetRef?.map((reference) => reference.parameter).sort();
          expect(parameters).toEqual(['address', 'password']);
          expect(ofKind(objects(), HorizontalPodAutoscaler.is)).toEqual([]);
        });
      }

      if (contract.migrates) {
        it(`migrates the ${contract.migrates} schema with a Job of its own image and database`, () => {
          const { jobs, pods } = workloads();
          const migrations = jobs.filter((job) => job.metadata?.labels?.['app.kubernetes.io/component'] === 'migrations');
          expect(migrations).toHaveLength(1);
          const migrate = pods.find((pod) => pod.owner === migrations[0])!;
          expect(migrate.container.args).toEqual(['migrate']);
          expect(migrate.container.image).toBe(server().container.image);
          expect(envOf(migrate).get('DATABASE_URL')).toEqual(envOf(server()).get('DATABASE_URL'));
          expect(migrate.template.spec?.restartPolicy).toBe('Never');
        });
      }
      if (contract.migrates === 'translation') {
        it('builds the catalog memory with a one-off Job of the catalog image, on the same database', () => {
          const { jobs, pods } = workloads();
          const catalogs = jobs.filter((job) => job.metadata?.labels?.['app.kubernetes.io/component'] === 'catalog');
          expect(catalogs).toHaveLength(1);
          const catalog = pods.find((pod) => pod.owner === catalogs[0])!;
          expect(catalog.container.args).toEqual(['admin', 'catalog:build']);
          expect(catalog.container.image).toBe(server().container.image!.replace(/\/translate-api:/, '/catalog:'));
          expect(envOf(catalog).get('DATABASE_URL')).toEqual(envOf(server()).get('DATABASE_URL'));
          expect(catalog.template.spec?.restartPolicy).toBe('Never');
        });
      }
      if (!contract.migrates) {
        it('runs no migrations: its schema belongs to another service', () => {
          expect(workloads().jobs).toEqual([]);
        });
      }

      it('is scraped by a ServiceMonitor through its Service, on the port its pods serve /metrics, as job ' + service, () => {
        const { container, template } = server();
        const services = ofKind(objects(), Service.is);
        const monitors = ofKind(objects(), ServiceMonitor.is);
        expect(monitors).toHaveLength(1);
        const [monitor] = monitors;
        // Without a jobLabel, Prometheus names the job after the Service.
        expect(monitor.spec.jobLabel).toBeUndefined();
        const scraped = services.filter((candidate) => selects(monitor.spec.selector.matchLabels, candidate.metadata?.labels));
        expect(scraped.map((candidate) => candidate.metadata?.name)).toEqual([service]);
        expect(selects(scraped[0].spec?.selector, template.metadata?.labels)).toBe(true);
        expect(monitor.spec.endpoints?.map((endpoint) => endpoint.path)).toEqual(['/metrics']);
        const port = scraped[0].spec!.ports!.find((candidate) => candidate.name === monitor.spec.endpoints![0].port);
        expect(portNumber(container, port?.targetPort ?? port?.port)).toBe(contract.port);
      });

      it('isolates every pod it runs, in both directions', () => {
        for (const { owner, template } of workloads().pods) {
          for (const direction of ['Ingress', 'Egress'] as const) {
            expect(isolating(objects(), template.metadata?.labels, direction).length, `${idOf(owner)} ${direction}`).toBeGreaterThan(0);
          }
        }
      });

      it(contract.api ? 'accepts clients from anywhere on its port' : 'accepts connections on its port only from the sources its policy names (Prometheus)', () => {
        const { container, template } = server();
        const rules = isolating(objects(), template.metadata?.labels, 'Ingress').flatMap((policy) => policy.spec?.ingress ?? []);
        const onPort = rules.filter((rule) => coversPort(rule.ports, contract.port, (name) => portNumber(container, name)));
        if (contract.api) expect(onPort.filter((rule) => !rule.from).length).toBeGreaterThan(0);
        else {
          expect(onPort.length).toBeGreaterThan(0);
          expect(rules.filter((rule) => !rule.from)).toEqual([]);
        }
      });

      it('reaches DNS, Postgres and Redis, and what its settings name, but never the cloud metadata address', () => {
        for (const { owner, template } of workloads().pods) {
          const policies = isolating(objects(), template.metadata?.labels, 'Egress');
          const rules = policies.flatMap((policy) => policy.spec?.egress ?? []);
          expect(rules.some((rule) => rule.ports?.some((port) => port.protocol === 'UDP' && port.port === 53)), `${idOf(owner)} DNS`).toBe(true);
          expect(egressAllows(policies, CLUSTER_ADDRESS, 5432), `${idOf(owner)} Postgres`).toBe(true);
          expect(egressAllows(policies, CLUSTER_ADDRESS, 6379), `${idOf(owner)} Redis`).toBe(true);
          for (const port of [80, 443]) expect(egressAllows(policies, CLOUD_METADATA, port), `${idOf(owner)} metadata :${port}`).toBe(false);
        }
        const policies = isolating(objects(), server().template.metadata?.labels, 'Egress');
        if (contract.env.includes('S3_ENDPOINT')) expect(egressAllows(policies, PUBLIC_ADDRESS, 443), 'S3').toBe(true);
        if (contract.env.includes('DEEPL_API_KEY')) expect(egressAllows(policies, PUBLIC_ADDRESS, 443), 'translation engine').toBe(true);
        if (contract.env.includes('SMTP_URL')) for (const port of [465, 587]) expect(egressAllows(policies, PUBLIC_ADDRESS, port), `mail server :${port}`).toBe(true);
        if (contract.queue && contract.env.includes('WEBHOOK_TIMEOUT_MS')) {
          expect(egressAllows(policies, PUBLIC_ADDRESS, 8443), "customers' receivers").toBe(true);
          expect(egressAllows(policies, CLUSTER_ADDRESS, 8443), 'receivers inside the cluster').toBe(false);
        }
      });
    });
  });
});
