import { BlockList, isIPv6, type Server } from 'node:net';

/** IPv4 clients of a dual-stack listener appear as `::ffff:a.b.c.d`. */
function plainAddress(address: string): string {
  return address.startsWith('::ffff:') && !address.slice(7).includes(':') ? address.slice(7) : address;
}

/** The names Fastify's `trustProxy` accepts besides addresses and CIDRs. */
const NAMED_RANGES: Record<string, string[]> = {
  loopback: ['127.0.0.0/8', '::1/128'],
  linklocal: ['169.254.0.0/16', 'fe80::/10'],
  uniquelocal: ['10.0.0.0/8', '172.16.0.0/12', '192.168.0.0/16', 'fc00::/7'],
};

function blockListOf(entries: string[]): BlockList {
  const list = new BlockList();
  for (const entry of entries.flatMap((e) => NAMED_RANGES[e] ?? [e])) {
    const [address, prefix] = entry.split('/');
    const type = isIPv6(address) ? 'ipv6' : 'ipv4';
    if (prefix === undefined) list.addAddress(address, type);
    else list.addSubnet(address, Number(prefix), type);
  }
  return list;
}

/**
 * Closes a new connection at once when its address already holds `max` open ones, so that one
 * client cannot pin every socket of the process with slow requests. Connections from trusted
 * proxies are not counted: behind a proxy all clients share its address, and the proxy is the
 * place to cap them per client.
 */
export function capConnectionsPerAddress(server: Server, max: number, trustedProxies: string[]): void {
  if (max <= 0) return;
  const trusted = blockListOf(trustedProxies);
  const open = new Map<string, number>();
  server.on('connection', (socket) => {
    if (!socket.remoteAddress) return;
    const address = plainAddress(socket.remoteAddress);
    if (trusted.check(address, isIPv6(address) ? 'ipv6' : 'ipv4')) return;
    const count = (open.get(address) ?? 0) + 1;
    if (count > max) {
      socket.destroy();
      return;
    }
    open.set(address, count);
    socket.once('close', () => {
      const left = (open.get(address) ?? 1) - 1;
      if (left > 0) open.set(address, left);
      else open.delete(address);
    });
  });
}
