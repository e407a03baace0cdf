import { IpRange, unmapIpv4, type IpAddress } from './ip-address';

/**
 * Addresses a webhook must never reach: the service's own host and network, cloud metadata
 * services, and ranges that are not unicast Internet addresses. The first match names the reason,
 * so the narrow metadata addresses come before the ranges that contain them.
 */
const SPECIAL_RANGES: [IpRange, string][] = (
  [
    ['169.254.169.254', 'a cloud metadata address'],
    ['fd00:ec2::254', 'a cloud metadata address'],
    ['0.0.0.0/8', 'an unspecified address'],
    ['10.0.0.0/8', 'a private address'],
    ['100.64.0.0/10', 'a carrier-grade NAT address'],
    ['127.0.0.0/8', 'a loopback address'],
    ['169.254.0.0/16', 'a link-local address'],
    ['172.16.0.0/12', 'a private address'],
    ['192.0.0.0/24', 'a reserved address'],
    ['192.0.2.0/24', 'a documentation address'],
    ['192.168.0.0/16', 'a private address'],
    ['198.18.0.0/15', 'a reserved address'],
    ['198.51.100.0/24', 'a documentation address'],
    ['203.0.113.0/24', 'a documentation address'],
    ['224.0.0.0/4', 'a multicast address'],
    ['255.255.255.255', 'the broadcast address'],
    ['240.0.0.0/4', 'a reserved address'],
    ['::', 'an unspecified address'],
    ['::1', 'a loopback address'],
    // IPv4-compatible IPv6, deprecated; some stacks still route it to the IPv4 address.
    ['::/96', 'a reserved address'],
    ['64:ff9b:1::/48', 'a reserved address'],
    ['100::/64', 'a reserved address'],
    ['2001:db8::/32', 'a documentation address'],
    ['fc00::/7', 'a private address'],
    ['fe80::/10', 'a link-local address'],
    ['fec0::/10', 'a site-local address'],
    ['ff00::/8', 'a multicast address'],
  ] as const
).map(([range, kind]) => [IpRange.of(range), kind]);

/** IPv6 ranges that carry an IPv4 address a gateway connects to: where it sits in the bytes. */
const EMBEDDING_RANGES: [IpRange, number][] = [
  [IpRange.of('64:ff9b::/96'), 12],
  [IpRange.of('2002::/16'), 2],
];

/** Why `address` may not receive webhooks (e.g. "a private address"), or null for a public address. */
export function specialAddressKind(address: IpAddress): string | null {
  const ip = unmapIpv4(address);
  for (const [range, offset] of EMBEDDING_RANGES) {
    if (range.contains(ip)) {
      const inner = specialAddressKind({ family: 4, bytes: ip.bytes.slice(offset, offset + 4) });
      if (inner) return `${inner} (embedded in IPv6)`;
    }
  }
  return SPECIAL_RANGES.find(([range]) => range.contains(ip))?.[1] ?? null;
}
