import * as keda from '@kubernetes-models/keda';
import * as prometheusOperator from '@kubernetes-models/prometheus-operator';
import * as kubernetes from 'kubernetes-models';
import type { KubeObject } from './rendered-manifests';

type ModelClass = new (data: object) => { validate(): void };
type VersionModels = Record<string, ModelClass>;

// The packages export one namespace per API group ("networking.k8s.io" as networkingK8sIo), one
// per version inside it, and the core group's version ("v1") at the top.
const groups = { ...kubernetes, ...keda, ...prometheusOperator } as unknown as Record<string, Record<string, VersionModels> | VersionModels>;

const groupKey = (group: string) => group.replace(/\.(\w)/g, (_, letter: string) => letter.toUpperCase());

function modelOf(apiVersion: string, kind: string): ModelClass | undefined {
  const [group, version] = apiVersion.includes('/') ? apiVersion.split('/') : [undefined, apiVersion];
  const models = group === undefined ? (groups[version] as VersionModels | undefined) : (groups[groupKey(group)] as Record<string, VersionModels> | undefined)?.[version];
  return models?.[kind];
}

/**
 * What the Kubernetes (or KEDA, or Prometheus Operator) OpenAPI schema of the object's kind finds wrong with it: missing
 * required fields, wrong types, values outside enums. Unknown fields are not reported; the schemas
 * allow them.
 */
export function schemaViolation(object: KubeObject): string | undefined {
  const Model = modelOf(object.apiVersion, object.kind);
  if (!Model) return `no schema for ${object.apiVersion} ${object.kind}`;
  try {
    new Model(object).validate();
    return undefined;
  } catch (error) {
    return error instanceof Error ? error.message : String(error);
  }
}
