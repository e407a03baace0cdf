import type { VettedWebhookUrl } from '@platform/webhooks';
import type { LookupFunction } from 'node:net';
import http from 'node:http';
import https from 'node:https';

export interface ReceiverAnswer {
  status: number;
  retryAfter?: string;
}

const USER_AGENT = 'eu-platform-webhooks/1';

/**
 * The connection may go only to the address the URL check approved. A fresh agent per request
 * holds that lookup (a shared keep-alive agent could hand back a socket to another address),
 * and TLS still verifies the certificate against the URL's host name.
 */
function pinnedAgent({ url, address, family }: VettedWebhookUrl): http.Agent {
  const lookup = ((_hostname, options, callback) => {
    if (options.all) callback(null, [{ address, family }]);
    else callback(null, address, family);
  }) as LookupFunction;
  const options = { keepAlive: false, lookup };
  return url.protocol === 'https:' ? new https.Agent(options) : new http.Agent(options);
}

export interface WebhookTimeouts {
  /** From the start to the response's head. */
  timeoutMs: number;
  /** Of that, until the connection is established (TLS handshake included). */
  connectTimeoutMs: number;
}

/**
 * POSTs `body` to the vetted URL and resolves with the status once the response head arrives;
 * the body of the answer is not read. Rejects on network errors and after either timeout: an
 * address that drops connection attempts fails fast, without waiting for the receive timeout.
 */
export async function postWebhook(
  target: VettedWebhookUrl,
  headers: Record<string, string>,
  body: string,
  { timeoutMs, connectTimeoutMs }: WebhookTimeouts,
): Promise<ReceiverAnswer> {
  const agent = pinnedAgent(target);
  const transport = target.url.protocol === 'https:' ? https : http;
  try {
    return await new Promise<ReceiverAnswer>((resolve, reject) => {
      const request = transport.request(
        target.url,
        {
          method: 'POST',
          agent,
          signal: AbortSignal.timeout(timeoutMs),
          headers: { ...headers, 'content-type': 'application/json', 'content-length': Buffer.byteLength(body), 'user-agent': USER_AGENT },
        },
        (response) => {
          const retryAfter = response.headers['retry-after'];
          resolve({ status: response.statusCode ?? 0, retryAfter: Array.isArray(retryAfter) ? retryAfter[0] : retryAfter });
          response.resume();
        },
      );
      request.on('socket', (socket) => {
        const timer = setTimeout(() => request.destroy(new Error(`No connection to the receiver within ${connectTimeoutMs} ms`)), connectTimeoutMs);
        socket.once(target.url.protocol === 'https:' ? 'secureConnect' : 'connect', () => clearTimeout(timer));
        socket.once('close', () => clearTimeout(timer));
      });
      request.on('error', (error) => reject(error.name === 'AbortError' ? new Error(`The receiver did not answer within ${timeoutMs} ms`) : error));
      request.end(body);
    });
  } finally {
    agent.destroy();
  }
}
