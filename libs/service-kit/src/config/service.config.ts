import { FETCH_BAD_PORTS } from '@platform/contracts';
import { IsBoolean, IsIn, IsInt, IsNotIn, IsOptional, IsString, Max, Min, Matches, Validate, ValidateBy } from 'class-validator';
import { EnvBool, EnvInt, EnvList } from './env.decorators';
import { HSTS_PRELOAD_MIN_AGE, PreloadableHsts } from './preloadable-hsts';

/** Settings every service reads. Each app's config class extends this with its own. */
export class ServiceConfig {
  @IsIn(['development', 'test', 'production'])
  NODE_ENV = 'development';

  @IsString()
  HOST = '127.0.0.1';

  /** Not a "bad port" of the Fetch standard: fetch, browsers and health checks would refuse it. */
  @EnvInt() @IsInt() @Min(0) @Max(65535) @IsNotIn(FETCH_BAD_PORTS, { message: 'PORT $value is a "bad port" of the Fetch standard, which fetch, browsers and health checks refuse to connect to; choose another' })
  PORT = 0;

  @IsIn(['fatal', 'error', 'warn', 'info', 'debug', 'trace', 'silent'])
  LOG_LEVEL = 'info';

  /** PEM files; when both are set the service terminates TLS itself. */
  @IsOptional() @IsString()
  TLS_CERT_FILE?: string;

  @IsOptional() @IsString()
  TLS_KEY_FILE?: string;

  /** Proxies whose X-Forwarded-Proto/For are believed: comma-separated IPs or CIDRs. */
  @EnvList() @IsString({ each: true })
  TRUSTED_PROXIES: string[] = [];

  /**
   * `max-age` of Strict-Transport-Security, sent on every answer that goes out over HTTPS (TLS
   * here, or X-Forwarded-Proto: https from a trusted proxy); 0 tells browsers to forget the policy.
   */
  @EnvInt() @IsInt() @Min(0) @Max(2 * HSTS_PRELOAD_MIN_AGE)
  HSTS_MAX_AGE_SECONDS = HSTS_PRELOAD_MIN_AGE;

  /** The policy covers the subdomains of the host name the service is reached at too. */
  @EnvBool() @IsBoolean()
  HSTS_INCLUDE_SUBDOMAINS = true;

  /** Adds `preload`: consent to browsers' built-in HSTS lists, which is slow to undo. */
  @EnvBool() @IsBoolean() @Validate(PreloadableHsts)
  HSTS_PRELOAD = false;

  /** Hard upper bound for a graceful shutdown before the process exits anyway. */
  @EnvInt() @IsInt() @Min(1000) @Max(25000)
  SHUTDOWN_TIMEOUT_MS = 20000;

  /**
   * A request's headers and body must have arrived within this, or the client gets 408 and the
   * connection is closed: a client trickling its body holds a connection only this long.
   */
  @EnvInt() @IsInt() @Min(1000) @Max(3_600_000)
  REQUEST_TIMEOUT_MS = 60_000;

  /** The request line and headers must have arrived within this (at most REQUEST_TIMEOUT_MS). */
  @EnvInt() @IsInt() @Min(1000) @Max(3_600_000)
  HEADERS_TIMEOUT_MS = 15_000;

  /** An idle keep-alive connection is closed after this; longer than a load balancer's own idle timeout. */
  @EnvInt() @IsInt() @Min(1000) @Max(3_600_000)
  KEEP_ALIVE_TIMEOUT_MS = 72_000;

  /** A connection on which nothing moves in either direction for this long is closed, even mid-request. */
  @EnvInt() @IsInt() @Min(1000) @Max(3_600_000)
  CONNECTION_TIMEOUT_MS = 120_000;

  /**
   * After an answer sent before the request body was read, up to this many body bytes are still
   * read and discarded so that the client can read the answer; a larger body gets the connection cut.
   */
  @EnvInt() @IsInt() @Min(0) @Max(100 * 1024 * 1024)
  UNREAD_BODY_DISCARD_BYTES = 1024 * 1024;

  /** How long the rest of such a body may take before the connection is cut. */
  @EnvInt() @IsInt() @Min(0) @Max(60_000)
  UNREAD_BODY_DISCARD_MS = 5000;

  /** Open connections one client address may hold; 0 means no cap. Trusted proxies are exempt. */
  @EnvInt() @IsInt() @Min(0) @Max(1_000_000)
  MAX_CONNECTIONS_PER_IP = 64;

  /** Failed authentications (401) one client address may make per minute before it gets 429; 0 means no limit. */
  @EnvInt() @IsInt() @Min(0) @Max(1_000_000)
  AUTH_FAILURES_PER_MINUTE = 100;

  /** `Retry-After` of a 503 (dependency outage, shutdown) that names no wait of its own. */
  @EnvInt() @IsInt() @Min(1) @Max(3600)
  UNAVAILABLE_RETRY_AFTER_SECONDS = 5;

  /** Serve the generated OpenAPI document at /openapi.json. */
  @EnvBool() @IsBoolean()
  OPENAPI_ENABLED = true;
}

/**
 * A deadline of a dependency call must end well before REQUEST_TIMEOUT_MS, so that a request
 * waiting on a hung dependency is answered 503 instead of timing out; `above`, when given, names
 * a setting it must exceed.
 */
const IsDeadline = (above?: keyof DatabaseConfig) =>
  ValidateBy({
    name: 'isDeadline',
    validator: {
      validate: (value: unknown, args) => {
        const config = args?.object as DatabaseConfig;
        const floor = above ? Number(config[above]) : 0;
        return typeof value === 'number' && value < config.REQUEST_TIMEOUT_MS && value > floor;
      },
      defaultMessage: (args) => `${args?.property} must be below REQUEST_TIMEOUT_MS${above ? ` and above ${above}` : ''}`,
    },
  });

export class DatabaseConfig extends ServiceConfig {
  @Matches(/^postgres(ql)?:\/\//, { message: 'DATABASE_URL must be a postgres:// URL' })
  DATABASE_URL = 'postgres://postgres@127.0.0.1:5432/platform';

  @EnvInt() @IsInt() @Min(1) @Max(200)
  DATABASE_POOL_SIZE = 10;

  /** Postgres cancels a statement that runs longer (statement_timeout); 0 keeps the server's own setting. */
  @EnvInt() @IsInt() @Min(0) @Max(3_600_000)
  DATABASE_STATEMENT_TIMEOUT_MS = 10_000;

  /** Postgres cancels a statement that waits longer for a lock (lock_timeout); 0 keeps the server's own setting. */
  @EnvInt() @IsInt() @Min(0) @Max(3_600_000)
  DATABASE_LOCK_TIMEOUT_MS = 5_000;

  /**
   * Postgres ends a session whose transaction sat idle this long (idle_in_transaction_session_timeout),
   * so a stalled process cannot hold its locks; 0 keeps the server's own setting.
   */
  @EnvInt() @IsInt() @Min(0) @Max(3_600_000)
  DATABASE_IDLE_IN_TRANSACTION_TIMEOUT_MS = 60_000;

  /**
   * A query without an answer this long fails and its connection is closed: the client's own
   * deadline, for a server that hangs and so cannot enforce the timeouts above.
   */
  @EnvInt() @IsInt() @Min(100) @IsDeadline('DATABASE_STATEMENT_TIMEOUT_MS')
  DATABASE_QUERY_TIMEOUT_MS = 12_000;
}

export class DatabaseRedisConfig extends DatabaseConfig {
  @Matches(/^rediss?:\/\//, { message: 'REDIS_URL must be a redis:// or rediss:// URL' })
  REDIS_URL = 'redis://127.0.0.1:6379';

  /**
   * A Redis command without an answer this long fails (the queues' blocking reads excepted, which
   * wait by design): a Redis that hangs then costs a request this long, not the whole hang.
   */
  @EnvInt() @IsInt() @Min(100) @IsDeadline()
  REDIS_COMMAND_TIMEOUT_MS = 2_000;
}
