import { IsBoolean, IsIn, IsInt, IsOptional, IsString, Max, Min, Matches } from 'class-validator';
import { EnvBool, EnvInt, EnvList } from './env.decorators';

/** Settings every service reads. Each app's config class extends this with its own. */
export class ServiceConfig {
  @IsIn(['development', 'test', 'production'])
  NODE_ENV = 'development';

  @IsString()
  HOST = '127.0.0.1';

  @EnvInt() @IsInt() @Min(0) @Max(65535)
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

  /** Hard upper bound for a graceful shutdown before the process exits anyway. */
  @EnvInt() @IsInt() @Min(1000) @Max(25000)
  SHUTDOWN_TIMEOUT_MS = 20000;

  /** Serve the generated OpenAPI document at /openapi.json. */
  @EnvBool() @IsBoolean()
  OPENAPI_ENABLED = true;
}

export class DatabaseConfig extends ServiceConfig {
  @Matches(/^postgres(ql)?:\/\//, { message: 'DATABASE_URL must be a postgres:// URL' })
  DATABASE_URL = 'postgres://postgres@127.0.0.1:5432/platform';

  @EnvInt() @IsInt() @Min(1) @Max(200)
  DATABASE_POOL_SIZE = 10;
}

export class DatabaseRedisConfig extends DatabaseConfig {
  @Matches(/^rediss?:\/\//, { message: 'REDIS_URL must be a redis:// or rediss:// URL' })
  REDIS_URL = 'redis://127.0.0.1:6379';
}
