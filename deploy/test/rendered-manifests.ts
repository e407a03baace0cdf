import type { ServiceName } from '@platform/contracts';
// Through the package root: the rule against importing another app also matches `kubernetes-models/apps/...`.
import { apps } from 'kubernetes-models';
import { Job } from 'kubernetes-models/batch/v1';
import { ConfigMap, type IContainer, type IPodTemplateSpec } from 'kubernetes-models/v1';
import { execFileSync } from 'node:child_process';
import { fileURLToPath } from 'node:url';
import { parseAllDocuments } from 'yaml';

/** Any rendered object; narrow it with a model's guard, e.g. `Deployment.is`. */
export interface KubeObject {
  apiVersion: string;
  kind: string;
  metadata: { name: string; namespace?: string; labels?: Record<string, string>; annotations?: Record<string, string> };
  [field: string]: unknown;
}

const DEPLOY_DIR = fileURLToPath(new URL('..', import.meta.url));

/** The first line of `kubectl version --client`, or undefined when kubectl is not installed. */
export function kubectlVersion(): string | undefined {
  try {
    return execFileSync('kubectl', ['version', '--client'], { encoding: 'utf8', stdio: ['ignore', 'pipe', 'ignore'] }).split('\n')[0];
  } catch {
    return undefined;
  }
}

const renders = new Map<string, KubeObject[]>();

/** `kubectl kustomize deploy/<folder>`, parsed; each folder is rendered once per test file. */
export function render(folder: string): KubeObject[] {
  let objects = renders.get(folder);
  if (!objects) {
    const text = execFileSync('kubectl', ['kustomize', `${DEPLOY_DIR}/${folder}`], { encoding: 'utf8', maxBuffer: 64 * 1024 * 1024 });
    objects = parseAllDocuments(text).map((document) => {
      if (document.errors.length > 0) throw new Error(`${folder}: ${document.errors.map(String).join('; ')}`);
      return document.toJS() as KubeObject;
    });
    renders.set(folder, objects);
  }
  return objects;
}

interface Named {
  kind: string;
  metadata?: { name?: string; namespace?: string; labels?: Record<string, string> };
}

export const idOf = (object: Named) => `${object.kind}/${object.metadata?.namespace ?? ''}/${object.metadata?.name}`;

/** The objects of one kind, typed by the kind's model: `ofKind(objects, Deployment.is)`. */
export const ofKind = <T>(objects: readonly unknown[], is: (value: unknown) => value is T): T[] => objects.filter(is);

/** A pod a service runs: its long-running Deployment's or a Job's, with the app container. */
export interface ServicePod {
  owner: Named;
  template: IPodTemplateSpec;
  container: IContainer;
}

export const serviceOf = (object: Named) => object.metadata?.labels?.['app.kubernetes.io/name'];

/** The service's Deployment and the pods of everything that runs its image. */
export function workloadsOf(objects: KubeObject[], service: ServiceName) {
  const own = objects.filter((object) => serviceOf(object) === service);
  const deployments = ofKind(own, apps.v1.Deployment.is);
  const jobs = ofKind(own, Job.is);
  const pods: ServicePod[] = [...deployments, ...jobs].map((owner) => {
    const template = owner.spec!.template;
    const containers = template.spec!.containers;
    if (containers.length !== 1) throw new Error(`${idOf(owner)} runs ${containers.length} containers; the checks expect the app alone`);
    return { owner, template, container: containers[0] };
  });
  return { own, deployments, jobs, pods };
}

/** Where a variable's value comes from: a literal (ConfigMap or `value`) or a Secret's key. */
export type EnvSource = { value: string } | { secret: string; key: string };

/** Every variable a container gets, with its source, as the kubelet would assemble it. */
export function containerEnv(container: IContainer, objects: KubeObject[]): Map<string, EnvSource> {
  const env = new Map<string, EnvSource>();
  for (const from of container.envFrom ?? []) {
    if (from.secretRef) throw new Error(`${container.name}: envFrom secretRef hides which variables it sets; use secretKeyRef per variable`);
    const name = from.configMapRef?.name;
    const configMap = ofKind(objects, ConfigMap.is).find((candidate) => candidate.metadata?.name === name);
    if (!configMap) throw new Error(`${container.name}: ConfigMap ${name} is not rendered with it`);
    for (const [key, value] of Object.entries(configMap.data ?? {})) env.set(`${from.prefix ?? ''}${key}`, { value });
  }
  for (const variable of container.env ?? []) {
    const secret = variable.valueFrom?.secretKeyRef;
    const configMapKey = variable.valueFrom?.configMapKeyRef;
    if (secret) env.set(variable.name, { secret: secret.name!, key: secret.key });
    else if (configMapKey) {
      const configMap = ofKind(objects, ConfigMap.is).find((candidate) => candidate.metadata?.name === configMapKey.name);
      env.set(variable.name, { value: configMap?.data?.[configMapKey.key] ?? '' });
    } else env.set(variable.name, { value: variable.value ?? '' });
  }
  return env;
}

/** A literal variable's value, or the default the service's config class gives it. */
export function literal(env: Map<string, EnvSource>, name: string, fallback: string): string {
  const source = env.get(name);
  if (source && 'secret' in source) throw new Error(`${name} comes from a Secret, not a literal`);
  return source?.value || fallback;
}

/** The number of a port given by number or by the name of one of the container's ports. */
export function portNumber(container: IContainer, port: number | string | undefined): number | undefined {
  if (typeof port === 'number') return port;
  return container.ports?.find((candidate) => candidate.name === port)?.containerPort;
}

/** True when every label the selector asks for is on the object. */
export const selects = (selector: Record<string, string> | undefined, labels: Record<string, string> | undefined) =>
  Object.entries(selector ?? {}).every(([key, value]) => labels?.[key] === value);

const UNITS: Record<string, number> = { m: 1e-3, '': 1, k: 1e3, M: 1e6, G: 1e9, Ki: 2 ** 10, Mi: 2 ** 20, Gi: 2 ** 30 };

/** A Kubernetes quantity ("500m", "2", "1536Mi") as a plain number. */
export function quantity(text: string | number): number {
  const match = /^(\d+(?:\.\d+)?)(m|k|M|G|Ki|Mi|Gi)?$/.exec(String(text));
  if (!match) throw new Error(`not a quantity this check knows: ${text}`);
  return Number(match[1]) * UNITS[match[2] ?? ''];
}
