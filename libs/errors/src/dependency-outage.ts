/**
 * A dependency the request needs (database, Redis, storage, translation engine) cannot serve it
 * right now. Libraries throw subclasses of this for their own outages; everything else is
 * recognised by `dependencyOutage` from the error classes and codes of the client libraries.
 */
export class DependencyUnavailableError extends Error {
  constructor(
    readonly dependency: string,
    message: string,
    options?: { cause?: unknown },
  ) {
    super(message, options);
  }
}

/** Socket-level failures of an outgoing connection: whoever we were talking to is away. */
const NETWORK_CODES = new Set(['ECONNREFUSED', 'ECONNRESET', 'ETIMEDOUT', 'EPIPE', 'EHOSTUNREACH', 'ENETUNREACH', 'EHOSTDOWN', 'EAI_AGAIN', 'ENOTFOUND', 'ECONNABORTED']);

/**
 * Postgres SQLSTATEs of an unusable server: class 08 (connection exception), 57P01 admin
 * shutdown, 57P02 crash shutdown, 57P03 cannot connect now, 53300 too many connections; and of
 * one that did not finish in time: 57014 statement_timeout (or a cancelled query), 55P03
 * lock_timeout, 25P03 idle_in_transaction_session_timeout.
 */
const POSTGRES_OUTAGE = /^(08...|57P0[123]|53300|57014|55P03|25P03)$/;

/** node-postgres and its pool raise these without a code; their messages are their only identity. */
const POSTGRES_CODELESS = new Set([
  'timeout exceeded when trying to connect',
  'Connection terminated unexpectedly',
  'Connection terminated due to connection timeout',
  'Connection terminated',
  'Client has encountered a connection error and is not queryable',
  'Client was closed and is not queryable',
  // A query that outlived the client's own deadline (query_timeout).
  'Query read timeout',
]);

/**
 * ioredis rejects commands with these plain errors: while disconnected (with `enableOfflineQueue:
 * false`), and when no answer came within `commandTimeout`.
 */
const REDIS_CODELESS = new Set(["Stream isn't writeable and enableOfflineQueue options is false", 'Connection is closed.', 'Command timed out']);

/** Error names of the AWS SDK (and S3-compatible servers) that mean "try again later". */
const S3_RETRYABLE = new Set(['SlowDown', 'ServiceUnavailable', 'InternalError', 'RequestTimeout', 'TimeoutError', 'NetworkingError', 'RequestTimeTooSkewed']);

interface ErrorLike {
  name?: unknown;
  code?: unknown;
  message?: unknown;
  severity?: unknown;
  cause?: unknown;
  driverError?: unknown;
  errors?: unknown;
  $fault?: unknown;
  $metadata?: { httpStatusCode?: number };
}

/**
 * Which dependency an error says is away (a phrase for messages and logs), or undefined when it
 * is not an outage. Follows `cause`, TypeORM's `driverError` and AggregateError's `errors`, since
 * clients wrap each other.
 */
export function dependencyOutage(error: unknown, depth = 0): string | undefined {
  if (!error || typeof error !== 'object' || depth > 5) return undefined;
  if (error instanceof DependencyUnavailableError) return error.dependency;
  const e = error as ErrorLike;
  const code = typeof e.code === 'string' ? e.code : undefined;
  const message = typeof e.message === 'string' ? e.message : '';
  if (code && e.severity !== undefined && POSTGRES_OUTAGE.test(code)) return 'the database';
  if (POSTGRES_CODELESS.has(message)) return 'the database';
  if (e.name === 'MaxRetriesPerRequestError' || REDIS_CODELESS.has(message)) return 'Redis';
  if (e.$metadata && (e.$fault === 'server' || (e.$metadata.httpStatusCode ?? 0) >= 500 || S3_RETRYABLE.has(String(e.name)))) return 'image storage';
  if (code && NETWORK_CODES.has(code)) return e.$metadata ? 'image storage' : 'a backing service';
  const nested = [e.cause, e.driverError, ...(Array.isArray(e.errors) ? e.errors : [])];
  for (const inner of nested) {
    const found = dependencyOutage(inner, depth + 1);
    if (found) return found;
  }
  return undefined;
}
