import { RESPONSE_EXCERPT_BYTES, type VettedWebhookUrl } from '@platform/webhooks';
import type { LookupFunction } from 'node:net';
import http from 'node:http';
import https from 'node:https';

export interface ReceiverAnswer {
  status: number;
  retryAfter?: string;
  /** The answer's first RESPONSE_EXCERPT_BYTES as text, for the delivery log. */
  excerpt: string;
}

/** A receiver that sends its head and then holds the body back delays the attempt's end at most this long. */
const EXCERPT_WAIT_MS = 1000;

/** As text a database column and a JSON answer can hold: invalid UTF-8 and NUL become U+FFFD. */
function excerptOf(chunks: Buffer[]): string {
  return Buffer.concat(chunks).subarray(0, RESPONSE_EXCERPT_BYTES).toString('utf8').replaceAll('\0', '\uFFFD');
}

/** Sent with every attempt besides the signature headers and the length. */
export const WEBHOOK_REQUEST_HEADERS = { 'content-type': 'application/json', 'user-agent': 'eu-platform-webhooks/1' };

/** Keep-alive agents kept at most; the least recently used one beyond goes (its idle connections with it). */
const MAX_AGENTS = 256;
/** Idle connections kept per receiver. */
const MAX_IDLE_SOCKETS = 8;
/**
 * Of a receiver's answer only the head counts (the delivery log records the status); a short
 * body up to this size is still read to its end, so that the connection serves the next
 * request. A longer one (a receiver may stream without end) is not: the connection is closed.
 */
const ANSWER_BODY_READ_BYTES = 16 * 1024;

const agents = new Map<string, http.Agent>();

/**
 * The connection may go only to the address the URL check approved: an agent holds that lookup,
 * and is kept (with its idle keep-alive connections) per URL origin and approved address, so a
 * connection is reused only for the same receiver at the same address. A host whose address
 * changes gets a new agent; TLS still verifies the certificate against the URL's host name.
 */
function pinnedAgent({ url, address, family }: VettedWebhookUrl): http.Agent {
  const key = `${url.protocol}//${url.host} ${address}`;
  const kept = agents.get(key);
  if (kept) {
    // Most recently used last, so that the first one is the one to go.
    agents.delete(key);
    agents.set(key, kept);
    return kept;
  }
  const lookup = ((_hostname, options, callback) => {
    if (options.all) callback(null, [{ address, family }]);
    else callback(null, address, family);
  }) as LookupFunction;
  // Node closes an idle connection before the receiver's announced keep-alive timeout runs out.
  const options = { keepAlive: true, maxFreeSockets: MAX_IDLE_SOCKETS, lookup };
  const agent = url.protocol === 'https:' ? new https.Agent(options) : new http.Agent(options);
  agents.set(key, agent);
  if (agents.size > MAX_AGENTS) {
    const [oldestKey, oldest] = agents.entries().next().value!;
    agents.delete(oldestKey);
    // Only its idle connections: requests under way on it finish, and their sockets then close.
    oldest.maxFreeSockets = 0;
    for (const sockets of Object.values(oldest.freeSockets)) for (const socket of sockets ?? []) socket.destroy();
  }
  return agent;
}

export interface WebhookTimeouts {
  /** From the start to the response's head. */
  timeoutMs: number;
  /** Of that, until the connection is established (TLS handshake included). */
  connectTimeoutMs: number;
}

/**
 * POSTs `body` to the vetted URL and resolves with the status and the answer's excerpt once the
 * excerpt is read (or the answer ended, or EXCERPT_WAIT_MS passed after its head); of the body at
 * most ANSWER_BODY_READ_BYTES are read, the rest only to keep the connection.
 * Rejects on network errors and after either timeout: an address that drops connection attempts
 * fails fast, without waiting for the receive timeout.
 */
export async function postWebhook(target: VettedWebhookUrl, headers: Record<string, string>, body: string, timeouts: WebhookTimeouts): Promise<ReceiverAnswer> {
  try {
    return await post(target, headers, body, timeouts);
  } catch (error) {
    // A kept connection reset as the request went out: the receiver closed it while idle, before
    // reading the request, so it is sent once more (receivers deduplicate on webhook-id anyway).
    if (!(error instanceof StaleConnectionError)) throw error;
    return post(target, headers, body, timeouts);
  }
}

class StaleConnectionError extends Error {}

function post(target: VettedWebhookUrl, headers: Record<string, string>, body: string, { timeoutMs, connectTimeoutMs }: WebhookTimeouts): Promise<ReceiverAnswer> {
  const agent = pinnedAgent(target);
  const transport = target.url.protocol === 'https:' ? https : http;
  return new Promise<ReceiverAnswer>((resolve, reject) => {
    const request = transport.request(
      target.url,
      {
        method: 'POST',
        agent,
        signal: AbortSignal.timeout(timeoutMs),
        headers: { ...headers, ...WEBHOOK_REQUEST_HEADERS, 'content-length': Buffer.byteLength(body) },
      },
      (response) => {
        const retryAfter = response.headers['retry-after'];
        const chunks: Buffer[] = [];
        let read = 0;
        const answer = () => {
          clearTimeout(waiting);
          resolve({ status: response.statusCode ?? 0, retryAfter: Array.isArray(retryAfter) ? retryAfter[0] : retryAfter, excerpt: excerptOf(chunks) });
        };
        const waiting = setTimeout(answer, EXCERPT_WAIT_MS);
        response.on('data', (chunk: Buffer) => {
          if (read < RESPONSE_EXCERPT_BYTES) chunks.push(chunk);
          read += chunk.length;
          if (read >= RESPONSE_EXCERPT_BYTES) answer();
          if (read > ANSWER_BODY_READ_BYTES) request.destroy();
        });
        // A body cut short, by us or the receiver, changes nothing: the status is what counts.
        response.on('end', answer);
        response.on('close', answer);
        response.on('error', () => undefined);
      },
    );
    request.on('socket', (socket) => {
      // A kept connection is established already.
      if (!socket.connecting) return;
      const timer = setTimeout(() => request.destroy(new Error(`No connection to the receiver within ${connectTimeoutMs} ms`)), connectTimeoutMs);
      socket.once(target.url.protocol === 'https:' ? 'secureConnect' : 'connect', () => clearTimeout(timer));
      socket.once('close', () => clearTimeout(timer));
    });
    request.on('error', (error: NodeJS.ErrnoException) => {
      if (error.name === 'AbortError') reject(new Error(`The receiver did not answer within ${timeoutMs} ms`));
      else if (request.reusedSocket && error.code === 'ECONNRESET') reject(new StaleConnectionError(error.message));
      else reject(error);
    });
    request.end(body);
  });
}
