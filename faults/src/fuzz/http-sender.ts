import http from 'node:http';
import https from 'node:https';
import type { Answer } from './response-check';
import type { FuzzRequest } from './request-generator';

/** Keeps at most `maxBytes` of an answer body; a fuzzer only needs enough to check its shape. */
const MAX_ANSWER_BYTES = 4 * 1024 * 1024;

export class SendFailure extends Error {
  constructor(
    readonly reason: string,
    message: string,
  ) {
    super(message);
  }
}

/** Sends requests exactly as generated (raw path, repeated headers, any method) over kept-alive connections. */
export class HttpSender {
  private readonly agent: http.Agent;
  private readonly client: typeof http | typeof https;

  constructor(
    private readonly baseUrl: URL,
    concurrency: number,
    private readonly timeoutMs: number,
  ) {
    this.client = baseUrl.protocol === 'https:' ? https : http;
    this.agent = new this.client.Agent({ keepAlive: true, maxSockets: concurrency });
  }

  close(): void {
    this.agent.destroy();
  }

  async send(request: FuzzRequest): Promise<Answer> {
    try {
      return await this.once(request);
    } catch (error) {
      // A kept-alive connection the server closed just before reuse is a race of HTTP/1.1, not a crash.
      if (error instanceof SendFailure && error.reason.startsWith('reused')) return this.once(request, false);
      throw error;
    }
  }

  private once(request: FuzzRequest, reuse = true): Promise<Answer> {
    const prefix = this.baseUrl.pathname.replace(/\/$/, '');
    return new Promise((resolve, reject) => {
      const headers: Record<string, string | string[]> = { ...request.headers };
      if (request.body) headers['content-length'] = String(request.body.length);
      const req = this.client.request({
        protocol: this.baseUrl.protocol,
        hostname: this.baseUrl.hostname,
        port: this.baseUrl.port,
        method: request.method,
        path: prefix + request.url,
        headers,
        agent: reuse ? this.agent : false,
        rejectUnauthorized: false,
      });
      const timer = setTimeout(() => req.destroy(new SendFailure('timeout', `no answer within ${this.timeoutMs} ms`)), this.timeoutMs);
      req.on('response', (res) => {
        const chunks: Buffer[] = [];
        let size = 0;
        res.on('data', (chunk: Buffer) => {
          size += chunk.length;
          if (size <= MAX_ANSWER_BYTES) chunks.push(chunk);
        });
        res.on('end', () => {
          clearTimeout(timer);
          resolve({ status: res.statusCode ?? 0, headers: res.headers, body: Buffer.concat(chunks) });
        });
        res.on('error', (error) => {
          clearTimeout(timer);
          reject(new SendFailure('connection broken during the answer', `${(error as NodeJS.ErrnoException).code ?? ''} ${error.message}`.trim()));
        });
      });
      req.on('error', (error: NodeJS.ErrnoException) => {
        clearTimeout(timer);
        if (error instanceof SendFailure) return reject(error);
        const reused = reuse && req.reusedSocket && (error.code === 'ECONNRESET' || error.code === 'EPIPE');
        const code = error.code ?? error.message;
        reject(new SendFailure(reused ? `reused connection closed (${code})` : `connection failed (${code})`, `${error.message}${reuse ? '' : ' (on a fresh connection, after a kept-alive one was closed)'}`));
      });
      // A server may answer (413, 401) and close before the whole body is written; that is not a failure.
      req.end(request.body);
    });
  }
}
