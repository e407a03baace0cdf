import { type INetworkPolicy, type INetworkPolicyPort, NetworkPolicy } from 'kubernetes-models/networking.k8s.io/v1';
import { type KubeObject, ofKind, selects } from './rendered-manifests';

export type Direction = 'Ingress' | 'Egress';

/** The policies that isolate a pod with these labels in one direction. */
export function isolating(objects: KubeObject[], labels: Record<string, string> | undefined, direction: Direction): INetworkPolicy[] {
  return ofKind(objects, NetworkPolicy.is).filter((policy) => {
    const spec = policy.spec!;
    if (spec.podSelector?.matchExpressions) throw new Error(`${policy.metadata?.name}: matchExpressions are not evaluated here`);
    const types = spec.policyTypes ?? (spec.egress ? ['Ingress', 'Egress'] : ['Ingress']);
    return types.includes(direction) && selects(spec.podSelector?.matchLabels, labels);
  });
}

const ipv4 = (address: string) => address.split('.').reduce((value, octet) => value * 256 + Number(octet), 0);

function inCidr(address: string, cidr: string): boolean {
  if (cidr.includes(':')) return false;
  const [network, bits] = cidr.split('/');
  const size = 2 ** (32 - Number(bits));
  return Math.floor(ipv4(address) / size) === Math.floor(ipv4(network) / size);
}

/** Whether a rule's ports cover a numbered port; `named` resolves the pod's own port names. */
export function coversPort(ports: INetworkPolicyPort[] | undefined, port: number, named: (name: string) => number | undefined = () => undefined) {
  if (!ports) return true;
  return ports.some((rule) => {
    if ((rule.protocol ?? 'TCP') !== 'TCP') return false;
    if (rule.port === undefined) return true;
    const start = typeof rule.port === 'number' ? rule.port : named(rule.port);
    return start !== undefined && port >= start && port <= (rule.endPort ?? start);
  });
}

/**
 * Whether a pod isolated by these policies may open a TCP connection to an address outside the
 * cluster (pod and namespace selectors never match such an address).
 */
export function egressAllows(policies: INetworkPolicy[], address: string, port: number): boolean {
  if (policies.length === 0) return true;
  return policies.some((policy) =>
    (policy.spec!.egress ?? []).some(
      (rule) =>
        coversPort(rule.ports, port) &&
        (!rule.to || rule.to.some((peer) => peer.ipBlock && inCidr(address, peer.ipBlock.cidr) && !(peer.ipBlock.except ?? []).some((cidr) => inCidr(address, cidr)))),
    ),
  );
}
