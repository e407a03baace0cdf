import { TranslationErrorCode } from '@platform/contracts';
import { ApiError } from '@platform/errors';
import type { FastifyInstance } from 'fastify';
import type { IncomingMessage, ServerResponse } from 'node:http';
import { BlockList, isIPv6, type Socket } from 'node:net';

/** How long a connection over the cap may take to send its request's head before it is closed unanswered. */
const OVER_CAP_HEAD_MS = 2_000;
/** What a client over the cap is asked to wait: a place frees as soon as one of its address's requests ends. */
const RETRY_AFTER_SECONDS = 1;

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

interface Connection {
  /** The TCP connection: under TLS, the socket below the one HTTP reads. */
  socket: Socket;
  address: string;
  /** Requests received and not yet answered. */
  pending: number;
  /** Since when it has waited for its next request, once it has been answered; until then it is busy. */
  idleSince?: number;
  /** Beyond the cap: its request gets 429 and the connection closes. */
  overCap?: NodeJS.Timeout;
}

/** A connection as both TCP and TLS sockets name it. */
const peerOf = (socket: Socket) => `${plainAddress(socket.remoteAddress ?? '')} ${socket.remotePort}`;

/**
 * At most `max` connections per client address, so that one client cannot pin every socket of
 * the process with slow requests; only busy ones count as such. A connection is busy until it
 * has been answered and again while a request on it is under way; in between it is an idle
 * keep-alive connection. When an address that has reached the cap opens another connection,
 * its connection idle the longest is closed to make room; when all are busy, the new one's
 * request is answered 429 `rate_limited` in the app's envelope, with `Retry-After` and
 * `Connection: close` — a client sees an answer, never a reset, unless its request's head takes
 * longer than OVER_CAP_HEAD_MS. Connections from trusted proxies are not counted: behind a
 * proxy all clients share its address, and the proxy is the place to cap them per client.
 */
export function capConnectionsPerAddress(fastify: FastifyInstance, max: number, trustedProxies: string[]): void {
  if (max <= 0) return;
  const trusted = blockListOf(trustedProxies);
  const byPeer = new Map<string, Connection>();
  const byAddress = new Map<string, Set<Connection>>();

  const forget = (connection: Connection) => {
    clearTimeout(connection.overCap);
    if (byPeer.get(peerOf(connection.socket)) === connection) byPeer.delete(peerOf(connection.socket));
    const open = byAddress.get(connection.address);
    open?.delete(connection);
    if (open?.size === 0) byAddress.delete(connection.address);
  };

  fastify.server.on('connection', (socket: Socket) => {
    if (!socket.remoteAddress) return;
    const address = plainAddress(socket.remoteAddress);
    if (trusted.check(address, isIPv6(address) ? 'ipv6' : 'ipv4')) return;
    const connection: Connection = { socket, address, pending: 0 };
    const open = byAddress.get(address) ?? new Set<Connection>();
    if (open.size >= max) {
      const idle = longestIdle(open);
      if (idle) {
        forget(idle);
        idle.socket.destroy();
      } else {
        connection.overCap = setTimeout(() => socket.destroy(), OVER_CAP_HEAD_MS);
      }
    }
    if (!connection.overCap) byAddress.set(address, open.add(connection));
    byPeer.set(peerOf(socket), connection);
    socket.once('close', () => forget(connection));
  });

  fastify.server.on('request', (request: IncomingMessage, response: ServerResponse) => {
    const connection = byPeer.get(peerOf(request.socket as Socket));
    if (!connection) return;
    clearTimeout(connection.overCap);
    connection.pending += 1;
    connection.idleSince = undefined;
    response.once('close', () => {
      connection.pending -= 1;
      // A request whose body is still being read and discarded closes its connection afterwards.
      if (connection.pending === 0 && request.complete) connection.idleSince = Date.now();
    });
  });

  fastify.addHook('onRequest', async (request) => {
    if (!byPeer.get(peerOf(request.raw.socket))?.overCap) return;
    throw new ApiError(
      429,
      TranslationErrorCode.RateLimited,
      `This address already has ${max} connections with requests under way; retry in ${RETRY_AFTER_SECONDS} s, or send requests over fewer connections`,
      {},
      { 'retry-after': String(RETRY_AFTER_SECONDS), connection: 'close' },
    );
  });
}

function longestIdle(open: Set<Connection>): Connection | undefined {
  let oldest: Connection | undefined;
  for (const connection of open) {
    if (connection.idleSince !== undefined && (oldest === undefined || connection.idleSince < oldest.idleSince!)) oldest = connection;
  }
  return oldest;
}
