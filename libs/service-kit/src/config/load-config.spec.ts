import { IsInt, Min } from 'class-validator';
import { describe, expect, it } from 'vitest';
import { EnvInt } from './env.decorators';
import { ConfigError, loadConfig } from './load-config';
import { DatabaseRedisConfig } from './service.config';

class ExampleConfig extends DatabaseRedisConfig {
  PORT = 4000;

  @EnvInt() @IsInt() @Min(1)
  BATCH_SIZE = 10;
}

describe('loadConfig', () => {
  it('takes defaults for unset and empty variables', () => {
    const config = loadConfig(ExampleConfig, { BATCH_SIZE: '' });
    expect(config).toMatchObject({ PORT: 4000, BATCH_SIZE: 10, NODE_ENV: 'development', TRUSTED_PROXIES: [], OPENAPI_ENABLED: true });
  });

  it('converts numbers, booleans and lists from their text', () => {
    const config = loadConfig(ExampleConfig, { PORT: '8080', OPENAPI_ENABLED: 'false', TRUSTED_PROXIES: '10.0.0.0/8, 127.0.0.1' });
    expect(config).toMatchObject({ PORT: 8080, OPENAPI_ENABLED: false, TRUSTED_PROXIES: ['10.0.0.0/8', '127.0.0.1'] });
  });

  it('refuses invalid values with one message naming every bad variable', () => {
    const load = () => loadConfig(ExampleConfig, { PORT: 'abc', BATCH_SIZE: '0', OPENAPI_ENABLED: 'maybe', REDIS_URL: 'http://x', NODE_ENV: 'prod' });
    expect(load).toThrow(ConfigError);
    const message = (() => {
      try {
        load();
      } catch (error) {
        return (error as Error).message;
      }
    })();
    for (const name of ['PORT="abc"', 'BATCH_SIZE=0', 'OPENAPI_ENABLED="maybe"', 'REDIS_URL="http://x"', 'NODE_ENV="prod"']) {
      expect(message).toContain(name);
    }
  });

  it('quotes a refused URL without its password', () => {
    const load = () => loadConfig(ExampleConfig, { REDIS_URL: 'http://cache:s3cr@t/pass@redis.example.eu:6379' });
    expect(load).toThrow('REDIS_URL="http://cache:***@redis.example.eu:6379"');
    expect(load).not.toThrow(/s3cr|pass@/);
  });

  it.each(['6000', '6697', '10080', '1'])('refuses PORT=%s, which fetch would refuse to connect to', (port) => {
    expect(() => loadConfig(ExampleConfig, { PORT: port })).toThrow(`PORT=${port}: PORT ${port} is a "bad port" of the Fetch standard`);
    expect(loadConfig(ExampleConfig, { PORT: String(Number(port) + 1) }).PORT).toBe(Number(port) + 1);
  });

  it('keeps every dependency deadline inside REQUEST_TIMEOUT_MS, and the client query deadline above the server statement timeout', () => {
    expect(loadConfig(DatabaseRedisConfig, {})).toMatchObject({
      DATABASE_STATEMENT_TIMEOUT_MS: 10_000,
      DATABASE_LOCK_TIMEOUT_MS: 5_000,
      DATABASE_IDLE_IN_TRANSACTION_TIMEOUT_MS: 60_000,
      DATABASE_QUERY_TIMEOUT_MS: 12_000,
      REDIS_COMMAND_TIMEOUT_MS: 2_000,
    });
    expect(loadConfig(DatabaseRedisConfig, { DATABASE_STATEMENT_TIMEOUT_MS: '0', DATABASE_QUERY_TIMEOUT_MS: '500' }).DATABASE_QUERY_TIMEOUT_MS).toBe(500);
    expect(() => loadConfig(DatabaseRedisConfig, { DATABASE_QUERY_TIMEOUT_MS: '9000' })).toThrow(
      'DATABASE_QUERY_TIMEOUT_MS=9000: DATABASE_QUERY_TIMEOUT_MS must be below REQUEST_TIMEOUT_MS and above DATABASE_STATEMENT_TIMEOUT_MS',
    );
    expect(() => loadConfig(DatabaseRedisConfig, { REQUEST_TIMEOUT_MS: '10000' })).toThrow('DATABASE_QUERY_TIMEOUT_MS=12000: DATABASE_QUERY_TIMEOUT_MS must be below REQUEST_TIMEOUT_MS');
    expect(() => loadConfig(DatabaseRedisConfig, { REDIS_COMMAND_TIMEOUT_MS: '60000' })).toThrow('REDIS_COMMAND_TIMEOUT_MS=60000: REDIS_COMMAND_TIMEOUT_MS must be below REQUEST_TIMEOUT_MS');
    expect(() => loadConfig(DatabaseRedisConfig, { DATABASE_LOCK_TIMEOUT_MS: '-1' })).toThrow('DATABASE_LOCK_TIMEOUT_MS=-1');
  });

  it('reads optional variables that have no default', () => {
    const config = loadConfig(DatabaseRedisConfig, { TLS_CERT_FILE: '/tls/cert.pem', TLS_KEY_FILE: '/tls/key.pem' });
    expect([config.TLS_CERT_FILE, config.TLS_KEY_FILE]).toEqual(['/tls/cert.pem', '/tls/key.pem']);
    expect(loadConfig(DatabaseRedisConfig, {}).TLS_CERT_FILE).toBeUndefined();
  });

  it.each([
    [{ HSTS_PRELOAD: 'true', HSTS_INCLUDE_SUBDOMAINS: 'false' }],
    [{ HSTS_PRELOAD: 'true', HSTS_MAX_AGE_SECONDS: '86400' }],
  ])('refuses HSTS_PRELOAD without what the preload lists require: %j', (env) => {
    expect(() => loadConfig(ExampleConfig, env)).toThrow('HSTS_PRELOAD=true: HSTS_PRELOAD needs HSTS_INCLUDE_SUBDOMAINS=true and HSTS_MAX_AGE_SECONDS of at least 31536000');
    expect(loadConfig(ExampleConfig, { ...env, HSTS_PRELOAD: 'false' }).HSTS_PRELOAD).toBe(false);
  });

  it('ignores variables the config does not declare', () => {
    expect(loadConfig(ExampleConfig, { SOMETHING_ELSE: 'x' })).not.toHaveProperty('SOMETHING_ELSE');
  });
});
