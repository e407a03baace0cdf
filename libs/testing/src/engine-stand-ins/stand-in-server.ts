import { createServer, type IncomingHttpHeaders, type IncomingMessage } from 'node:http';
import type { AddressInfo } from 'node:net';
import { setTimeout as sleep } from 'node:timers/promises';

export interface RecordedRequest {
  method: string;
  path: string;
  headers: IncomingHttpHeaders;
  /** Query string and body fields, whether form- or JSON-encoded; arrays become repeated fields. */
  params: URLSearchParams;
  /** The parsed body of a JSON request. */
  json?: unknown;
}

export interface StandInReply {
  status: number;
  body: unknown;
  headers?: Record<string, string>;
}

/**
 * Misbehaviour for the next matching requests: answer `status` with `body` instead of doing the
 * work, and/or wait `delayMs` first (with no `status` the request is then served normally).
 */
export interface Disruption {
  status?: number;
  body?: unknown;
  headers?: Record<string, string>;
  delayMs?: number;
  /** How many matching requests are disrupted (default 1). */
  times?: number;
  /** Only requests to this path are disrupted (default: any). */
  path?: string;
}

export interface StandIn {
  /** Base URL, e.g. `http://127.0.0.1:40123`. */
  readonly url: string;
  /** Every request received, in order. */
  readonly requests: RecordedRequest[];
  requestsTo(path: string): RecordedRequest[];
  disrupt(disruption: Disruption): void;
  stop(): Promise<void>;
}

/** An HTTP server on a loopback port (a free one unless given) that records requests and answers through `handle`. */
export async function startStandIn(handle: (request: RecordedRequest) => StandInReply, port = 0): Promise<StandIn> {
  const requests: RecordedRequest[] = [];
  const disruptions: (Disruption & { times: number })[] = [];

  const server = createServer((req, res) => {
    void (async () => {
      const request = await record(req);
      requests.push(request);
      const disruption = disruptions.find((d) => d.times > 0 && (d.path === undefined || d.path === request.path));
      if (disruption) disruption.times -= 1;
      if (disruption?.delayMs) await sleep(disruption.delayMs);
      const reply =
        disruption?.status === undefined ? handle(request) : { status: disruption.status, body: disruption.body ?? {}, headers: disruption.headers };
      // A string body goes out as it is, to play a proxy's error page or a broken answer.
      const raw = typeof reply.body === 'string';
      res.writeHead(reply.status, { 'content-type': raw ? 'text/html' : 'application/json', ...reply.headers });
      res.end(raw ? reply.body : JSON.stringify(reply.body));
    })().catch((error: unknown) => {
      res.writeHead(500, { 'content-type': 'application/json' });
      res.end(JSON.stringify({ message: String(error) }));
    });
  });
  await new Promise<void>((resolve, reject) => {
    server.once('error', reject);
    server.listen(port, '127.0.0.1', resolve);
  });
  const address = server.address() as AddressInfo;

  return {
    url: `http://127.0.0.1:${address.port}`,
    requests,
    requestsTo: (path) => requests.filter((r) => r.path === path),
    disrupt: (disruption) => disruptions.push({ ...disruption, times: disruption.times ?? 1 }),
    stop: async () => {
      // Clients keep connections alive; close them or close() waits for them to idle out.
      server.closeAllConnections();
      await new Promise<void>((resolve, reject) => server.close((error) => (error ? reject(error) : resolve())));
    },
  };
}

async function record(req: IncomingMessage): Promise<RecordedRequest> {
  const url = new URL(req.url ?? '/', 'http://stand-in');
  const params = new URLSearchParams(url.searchParams);
  const chunks: Buffer[] = [];
  for await (const chunk of req) chunks.push(chunk as Buffer);
  const body = Buffer.concat(chunks).toString('utf8');
  const contentType = req.headers['content-type'] ?? '';
  let json: unknown;
  if (contentType.startsWith('application/json') && body) {
    json = JSON.parse(body);
    for (const [name, value] of Object.entries(json as Record<string, unknown>)) {
      for (const item of Array.isArray(value) ? value : [value]) params.append(name, String(item));
    }
  } else if (contentType.startsWith('application/x-www-form-urlencoded')) {
    for (const [name, value] of new URLSearchParams(body)) params.append(name, value);
  }
  return { method: req.method ?? 'GET', path: url.pathname, headers: req.headers, params, json };
}
