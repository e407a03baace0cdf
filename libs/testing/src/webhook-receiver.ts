import { createServer, type IncomingHttpHeaders, type ServerResponse } from 'node:http';
import type { AddressInfo } from 'node:net';

/**
 * Settings for webhook-dispatcher and translate-api under test: receivers run on 127.0.0.1, and
 * retries come a second apart. Every dispatcher started by a test uses exactly these, since any of
 * them may pick up a delivery queued by another test file.
 */
export const WEBHOOK_TEST_ENV = {
  WEBHOOK_ALLOWED_HOSTS: '127.0.0.1',
  WEBHOOK_RETRY_SCHEDULE: '1,1,1,1,1',
  WEBHOOK_TIMEOUT_MS: '2000',
  // More than the attempts of one event, so no test meets an open circuit unless it sets its own.
  WEBHOOK_CIRCUIT_FAILURES: '10',
};

export interface ReceivedWebhook {
  path: string;
  headers: IncomingHttpHeaders;
  /** The raw body, exactly as signed. */
  body: string;
  /** Date.now() when the request arrived. */
  at: number;
}

/**
 * What the receiver does with a request: answer with a status (and headers, and a body), or never
 * answer. An `endless` body is written as fast as the client takes it until the connection
 * closes; a `held` one is the given bytes' head and then nothing until the connection closes.
 */
export type ReceiverAnswer = { status: number; headers?: Record<string, string>; body?: 'endless' | Buffer | { held: Buffer } } | 'hang';

export interface WebhookReceiver {
  /** Base URL on the address listened to, e.g. `http://127.0.0.1:40123`. */
  readonly url: string;
  /** Every request received, in order. */
  readonly received: ReceivedWebhook[];
  /** Connections open now, and the most that were open at once. */
  readonly connections: { readonly open: number; readonly peak: number };
  /** Bytes of answer bodies the network took from the receiver so far. */
  readonly answered: { readonly bytes: number };
  stop(): Promise<void>;
}

/**
 * A customer's webhook endpoint on a free port of `host` (loopback unless a stack elsewhere, such
 * as containers, must reach it), or on `port` (a receiver back after an outage): it records each
 * request and answers as `answer` says, given the request and how many came before it.
 */
export async function startWebhookReceiver(
  answer: (request: ReceivedWebhook, index: number) => ReceiverAnswer | Promise<ReceiverAnswer> = () => ({ status: 204 }),
  { host = '127.0.0.1', port = 0 }: { host?: string; port?: number } = {},
): Promise<WebhookReceiver> {
  const received: ReceivedWebhook[] = [];
  const answered = { bytes: 0 };
  const server = createServer((req, res) => {
    const chunks: Buffer[] = [];
    req.on('data', (chunk: Buffer) => chunks.push(chunk));
    req.on('end', () => {
      void (async () => {
        const request = { path: req.url ?? '/', headers: req.headers, body: Buffer.concat(chunks).toString('utf8'), at: Date.now() };
        const index = received.push(request) - 1;
        const reply = await answer(request, index);
        if (reply === 'hang') return;
        res.writeHead(reply.status, reply.headers);
        if (reply.body === 'endless') writeEndlessly(res, answered);
        else if (Buffer.isBuffer(reply.body)) res.end(reply.body);
        else if (reply.body) res.write(reply.body.held);
        else res.end();
      })();
    });
  });
  const connections = { open: 0, peak: 0 };
  server.on('connection', (socket) => {
    connections.peak = Math.max(connections.peak, ++connections.open);
    socket.once('close', () => connections.open--);
  });
  await new Promise<void>((resolve) => server.listen(port, host, resolve));
  return {
    url: `http://${host.includes(':') ? `[${host}]` : host}:${(server.address() as AddressInfo).port}`,
    received,
    connections,
    answered,
    stop: () =>
      new Promise<void>((resolve) => {
        server.closeAllConnections();
        server.close(() => resolve());
      }),
  };
}

/** Writes a body that never ends, a piece each time the last one has been taken, until the connection closes. */
function writeEndlessly(res: ServerResponse, answered: { bytes: number }): void {
  const piece = Buffer.alloc(64 * 1024, 'x');
  const taken = (error?: Error | null) => {
    if (!error) answered.bytes += piece.length;
  };
  const more = () => {
    while (!res.destroyed) {
      if (!res.write(piece, taken)) return void res.once('drain', more);
    }
  };
  res.on('error', () => undefined);
  more();
}
