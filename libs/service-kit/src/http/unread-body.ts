import type { FastifyInstance } from 'fastify';
import type { IncomingMessage } from 'node:http';
import type { Socket } from 'node:net';

export interface UnreadBodyLimits {
  /** Body bytes read and discarded after an early answer before the connection is cut. */
  maxBytes: number;
  /** How long the rest of the body may take before the connection is cut. */
  maxMs: number;
}

/**
 * Some answers go out before the request body was read (credentials refused before the body, a
 * busy service, a file over its cap, a dependency down). Closing the connection at once would
 * leave the unread body in the kernel, which then resets the connection: a client still sending
 * an ordinary upload gets `EPIPE`/`ECONNRESET` and never reads the answer. So such an answer says
 * `Connection: close`, the rest of the body is read and thrown away, and the connection closes
 * once the body has ended — or at once when it goes over `maxBytes` or `maxMs`, so that a large
 * or slow upload is still cut off and nothing of it is kept.
 */
export function lingerAfterEarlyAnswers(fastify: FastifyInstance, limits: UnreadBodyLimits): void {
  fastify.addHook('onSend', async (request, reply) => {
    if (request.raw.complete) return;
    reply.header('connection', 'close');
    discardBeforeClosing(request.raw, limits);
  });
}

/** Node closes a `Connection: close` response's socket through `destroySoon` once the response is sent. */
function discardBeforeClosing(request: IncomingMessage, { maxBytes, maxMs }: UnreadBodyLimits) {
  const socket = request.socket as Socket;
  const destroySoon = socket.destroySoon.bind(socket);
  socket.destroySoon = () => {
    if (request.complete) return destroySoon();
    // The answer is complete; the client may go on sending (a half-open connection) until it ends.
    socket.end();
    const cut = () => socket.destroy();
    const timer = setTimeout(cut, maxMs);
    socket.once('close', () => clearTimeout(timer));
    let read = 0;
    // A reader of the body (a multipart parser) has stopped; its listeners would keep what arrives.
    request.unpipe();
    request.removeAllListeners('data');
    request.on('data', (chunk: Buffer) => {
      read += chunk.length;
      if (read > maxBytes) cut();
    });
    request.once('end', cut);
    request.resume();
  };
}
