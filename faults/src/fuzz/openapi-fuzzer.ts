import { parseCredentials } from './auth-variants';
import { HttpSender, SendFailure } from './http-sender';
import { readDocument } from './openapi-document';
import { type FuzzRequest, RequestGenerator } from './request-generator';
import { type Answer, checkAnswer, envelopeOf, type Envelope } from './response-check';
import { sampleFiles } from './sample-files';

export interface FuzzTarget {
  baseUrl: string;
  /** The app's own /openapi.json. */
  document: object;
  envelope: Envelope;
  /**
   * Security scheme name → secret. A comma-separated list is used in turn, request after
   * request, so several keys can share the load under a per-key rate limit.
   */
  credentials: Record<string, string>;
}

export interface FuzzProblem {
  method: string;
  /** The operation's path template (the concrete URL is in `request`). */
  path: string;
  /** 0 when no answer came (connection reset, timeout). */
  status: number;
  reason: string;
  /** The start of the answer's body. */
  body: string;
  /** How to reproduce the first occurrence: seed, index and the request as sent. */
  request: string;
  /** How many requests ran into this same problem. */
  count: number;
}

export interface FuzzReport {
  total: number;
  /** Answers by status code; requests without an answer under "no answer". */
  byStatus: Record<string, number>;
  /** Deduplicated by method, path template, status and reason; at most `maxProblems`. */
  problems: FuzzProblem[];
  seed: number;
  /** Requests sent per operation ("METHOD /path"), to show every operation was reached. */
  byOperation: Record<string, number>;
}

export interface FuzzOptions {
  requests: number;
  seed?: number;
  /** Requests in flight at once; default 8. */
  concurrency?: number;
  /** Per request; default 30 s. A request without an answer by then is a problem. */
  timeoutMs?: number;
  /** Distinct problems kept; default 50. */
  maxProblems?: number;
}

const NO_ANSWER = 'no answer';
const BODY_PREVIEW = 300;

function describeRequest(seed: number, index: number, request: FuzzRequest): string {
  const headers = Object.entries(request.headers)
    .map(([name, value]) => `${name}: ${(Array.isArray(value) ? value.join(' | ') : value).slice(0, 80)}`)
    .join('; ');
  const body = request.body ? ` body (${request.body.length} bytes): ${request.body.toString('latin1', 0, Math.min(request.body.length, 200)).replace(/[^\x20-\x7e]/g, '.')}` : '';
  const url = request.url.length > 300 ? `${request.url.slice(0, 300)}… (${request.url.length} chars)` : request.url;
  return `seed ${seed} #${index} [${request.label}]: ${request.method} ${url} {${headers}}${body}`;
}

/**
 * Sends `options.requests` requests generated from an OpenAPI document (every operation in
 * turn, each varied in one aspect: body, credential, path, query, header or method) and
 * reports every answer that is a 5xx, outside the error envelope, or missing altogether.
 * The same seed gives the same requests.
 */
export async function runFuzz(target: FuzzTarget, options: FuzzOptions): Promise<FuzzReport> {
  const seed = options.seed ?? Math.floor(Math.random() * 2 ** 31);
  const concurrency = Math.max(1, options.concurrency ?? 8);
  const maxProblems = options.maxProblems ?? 50;
  const model = readDocument(target.document);
  const generator = new RequestGenerator({ model, secrets: parseCredentials(target.credentials), files: await sampleFiles() });
  // Errors on a path come in the envelope of its API, whatever the method (a wrong one included).
  const envelopeAt = (template: string) => envelopeOf(target.envelope, model.operations.filter((operation) => operation.path === template));
  if (generator.operations.length === 0) throw new Error('the OpenAPI document declares no operations');
  const sender = new HttpSender(new URL(target.baseUrl), concurrency, options.timeoutMs ?? 30_000);
  const report: FuzzReport = { total: 0, byStatus: {}, problems: [], seed, byOperation: {} };
  const problems = new Map<string, FuzzProblem>();

  const record = (index: number, request: FuzzRequest, status: number, reason: string, body: string) => {
    const key = `${request.method} ${request.template} ${status} ${reason}`;
    const known = problems.get(key);
    if (known) known.count += 1;
    else if (problems.size < maxProblems) problems.set(key, { method: request.method, path: request.template, status, reason, body: body.slice(0, BODY_PREVIEW), request: describeRequest(seed, index, request), count: 1 });
  };

  let next = 0;
  const worker = async () => {
    while (next < options.requests) {
      const index = next++;
      const request = generator.generate(seed, index);
      const operation = `${request.operation?.method ?? request.method} ${request.template}`;
      report.byOperation[operation] = (report.byOperation[operation] ?? 0) + 1;
      let answer: Answer;
      try {
        answer = await sender.send(request);
      } catch (error) {
        report.byStatus[NO_ANSWER] = (report.byStatus[NO_ANSWER] ?? 0) + 1;
        record(index, request, 0, error instanceof SendFailure ? error.reason : String(error), error instanceof Error ? error.message : '');
        continue;
      } finally {
        report.total += 1;
      }
      report.byStatus[answer.status] = (report.byStatus[answer.status] ?? 0) + 1;
      const reason = checkAnswer(envelopeAt(request.template), request.method, request.operation, answer);
      if (reason) record(index, request, answer.status, reason, answer.body.toString('utf8'));
    }
  };
  try {
    await Promise.all(Array.from({ length: concurrency }, worker));
  } finally {
    sender.close();
  }
  report.problems = [...problems.values()];
  return report;
}
