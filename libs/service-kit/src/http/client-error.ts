import type { ErrorEnvelope } from '@platform/errors';
import { STATUS_CODES } from 'node:http';
import type { Duplex } from 'node:stream';
import type { TLSSocket } from 'node:tls';

const FAILURES: Record<string, { status: number; code: string; message: string }> = {
  ERR_HTTP_REQUEST_TIMEOUT: { status: 408, code: 'request_timeout', message: 'The request was not received within the time limit' },
  HPE_HEADER_OVERFLOW: { status: 431, code: 'bad_request', message: 'The request headers are too large' },
};
const MALFORMED = { status: 400, code: 'bad_request', message: 'Malformed HTTP request' };

/**
 * Node reports requests it cannot parse or that arrive too slowly as `clientError`, before any
 * route or hook exists. They get the app's envelope too, written straight to the socket, which
 * is then closed: a slow or broken client never keeps its connection. Over TLS they carry
 * Strict-Transport-Security (`hsts`) like every other answer.
 */
export function clientErrorHandler(envelope: ErrorEnvelope, hsts: string) {
  return (error: NodeJS.ErrnoException, socket: Duplex): void => {
    if (error.code === 'ECONNRESET' || socket.destroyed) return;
    const { status, code, message } = (error.code && FAILURES[error.code]) || MALFORMED;
    const body = JSON.stringify(envelope.render({ status, code, message, extra: {}, headers: {}, unexpected: false }));
    const head = [
      `HTTP/1.1 ${status} ${STATUS_CODES[status]}`,
      'Content-Type: application/json; charset=utf-8',
      `Content-Length: ${Buffer.byteLength(body)}`,
      'X-Content-Type-Options: nosniff',
      'Connection: close',
      ...((socket as TLSSocket).encrypted ? [`Strict-Transport-Security: ${hsts}`] : []),
    ];
    if (!socket.writable) {
      socket.destroy();
      return;
    }
    socket.end(`${head.join('\r\n')}\r\n\r\n${body}`, () => socket.destroy());
  };
}
