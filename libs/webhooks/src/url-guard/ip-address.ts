import { isIPv4, isIPv6 } from 'node:net';

/** An IP address as its bytes: 4 for IPv4, 16 for IPv6. */
export interface IpAddress {
  family: 4 | 6;
  bytes: Uint8Array;
}

export function parseIp(text: string): IpAddress | null {
  if (isIPv4(text)) return { family: 4, bytes: Uint8Array.from(text.split('.').map(Number)) };
  // A zone index (fe80::1%eth0) names an interface, not part of the address.
  const address = text.split('%')[0];
  if (!isIPv6(address)) return null;
  let hex = address;
  // An IPv4 tail (::ffff:10.0.0.1) is the last two 16-bit groups.
  const dotted = /(\d+\.\d+\.\d+\.\d+)$/.exec(hex);
  if (dotted) {
    const [a, b, c, d] = dotted[1].split('.').map(Number);
    hex = hex.slice(0, dotted.index) + `${((a << 8) | b).toString(16)}:${((c << 8) | d).toString(16)}`;
  }
  const [head, tail] = hex.split('::');
  const groups = (part: string | undefined) => (part ? part.split(':').map((g) => parseInt(g, 16)) : []);
  const front = groups(head);
  const back = groups(tail);
  const all = tail === undefined ? front : [...front, ...new Array(8 - front.length - back.length).fill(0), ...back];
  const bytes = new Uint8Array(16);
  all.forEach((group, i) => {
    bytes[2 * i] = group >> 8;
    bytes[2 * i + 1] = group & 0xff;
  });
  return { family: 6, bytes };
}

/** A CIDR block such as 10.0.0.0/8 or fc00::/7; a bare address is a block of one. */
export class IpRange {
  private constructor(
    readonly base: IpAddress,
    readonly prefix: number,
  ) {}

  static parse(text: string): IpRange | null {
    const [address, bits, ...rest] = text.trim().split('/');
    const base = parseIp(address);
    if (!base || rest.length > 0) return null;
    const width = base.bytes.length * 8;
    if (bits === undefined) return new IpRange(base, width);
    if (!/^\d{1,3}$/.test(bits) || Number(bits) > width) return null;
    return new IpRange(base, Number(bits));
  }

  static of(text: string): IpRange {
    const range = IpRange.parse(text);
    if (!range) throw new Error(`not an IP range: ${text}`);
    return range;
  }

  contains(ip: IpAddress): boolean {
    if (ip.family !== this.base.family) return false;
    for (let bit = 0; bit < this.prefix; bit += 8) {
      const mask = this.prefix - bit >= 8 ? 0xff : (0xff << (8 - (this.prefix - bit))) & 0xff;
      if ((ip.bytes[bit / 8] & mask) !== (this.base.bytes[bit / 8] & mask)) return false;
    }
    return true;
  }
}

const IPV4_MAPPED = IpRange.of('::ffff:0:0/96');

/** The IPv4 address inside `ip` when it is one written as IPv6 (::ffff:a.b.c.d); `ip` otherwise. */
export function unmapIpv4(ip: IpAddress): IpAddress {
  return IPV4_MAPPED.contains(ip) ? { family: 4, bytes: ip.bytes.slice(12) } : ip;
}
