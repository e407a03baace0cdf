import { connect, type Socket } from 'node:net';
import { connect as connectTls } from 'node:tls';

/** One TCP connection to an app, for what fetch cannot do: trickle a body, hold a request half sent. */
export interface RawConnection {
  socket: Socket;
  write(data: string): void;
  /** Everything the server sent until it closed the connection; `error` set if it reset it. */
  closed: Promise<{ received: string; error?: NodeJS.ErrnoException }>;
  /** The bytes received so far. */
  received(): string;
}

/** Over TLS for an `https:` URL, trusting `ca` (a self-signed certificate) instead of the usual authorities when given. */
export async function openRawConnection(baseUrl: string, { ca }: { ca?: Buffer } = {}): Promise<RawConnection> {
  const { protocol, hostname, port } = new URL(baseUrl);
  const socket = protocol === 'https:' ? connectTls({ host: hostname, port: Number(port), ca }) : connect(Number(port), hostname);
  let received = '';
  let error: NodeJS.ErrnoException | undefined;
  socket.on('data', (chunk) => (received += chunk.toString('utf8')));
  socket.on('error', (e) => (error = e));
  const closed = new Promise<{ received: string; error?: NodeJS.ErrnoException }>((resolve) => socket.once('close', () => resolve({ received, error })));
  await new Promise<void>((resolve, reject) => {
    socket.once(protocol === 'https:' ? 'secureConnect' : 'connect', resolve);
    socket.once('error', reject);
  });
  return { socket, write: (data) => socket.write(data), closed, received: () => received };
}

/** Status, lower-cased headers and parsed JSON body of a raw HTTP/1.1 response. */
export function parseRawResponse(raw: string): { status: number; headers: Record<string, string>; body: any } {
  const [head, ...rest] = raw.split('\r\n\r\n');
  const [statusLine, ...lines] = head.split('\r\n');
  const headers = Object.fromEntries(lines.map((line) => [line.slice(0, line.indexOf(':')).toLowerCase(), line.slice(line.indexOf(':') + 1).trim()]));
  const text = rest.join('\r\n\r\n');
  let body: unknown = text;
  try {
    body = JSON.parse(text);
  } catch {
    // not JSON: keep the text
  }
  return { status: Number(statusLine.split(' ')[1]), headers, body };
}
