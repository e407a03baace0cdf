import { createServer, type IncomingMessage, request } from 'node:http';
import type { AddressInfo } from 'node:net';
import type { Transform } from 'node:stream';

/** What the proxy does with one request: answer it itself, pass its body through a transform, or (nothing) forward it as it is. */
export type Tampering = { answer: { status: number; headers?: Record<string, string>; body: string } } | { body: Transform } | undefined;

export interface TamperingProxy {
  /** `target` with the proxy's address in place of the server's. */
  url: string;
  close(): Promise<void>;
}

/**
 * An HTTP proxy in front of a real server (an S3 endpoint, say) through which a test makes it
 * misbehave the way networks and disks do: refuse some requests, damage some bodies.
 */
export function startTamperingProxy(target: string, tamper: (request: IncomingMessage) => Tampering): Promise<TamperingProxy> {
  const upstream = new URL(target);
  const server = createServer((req, res) => {
    const tampering = tamper(req);
    if (tampering && 'answer' in tampering) {
      // The request's body is read and dropped, so the client can read the answer.
      req.resume();
      res.writeHead(tampering.answer.status, tampering.answer.headers).end(tampering.answer.body);
      return;
    }
    const forwarded = request({ host: upstream.hostname, port: upstream.port, method: req.method, path: req.url, headers: req.headers }, (answer) => {
      res.writeHead(answer.statusCode!, answer.headers);
      answer.pipe(res);
    });
    forwarded.on('error', () => res.destroy());
    (tampering ? req.pipe(tampering.body) : req).pipe(forwarded);
  });
  return new Promise((resolve) =>
    server.listen(0, '127.0.0.1', () =>
      resolve({
        url: Object.assign(new URL(target), { hostname: '127.0.0.1', port: String((server.address() as AddressInfo).port) }).toString().replace(/\/$/, ''),
        close: () => new Promise((done) => server.close(() => done())),
      }),
    ),
  );
}
