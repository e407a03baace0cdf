/**
 * Where tests find their real dependencies. Defaults match the local stack; CI and developers
 * may point them elsewhere. Tests use their own database so they never touch local data.
 */
export const testEnv = {
  databaseUrl: process.env.TEST_DATABASE_URL ?? 'postgres://postgres@127.0.0.1:5432/platform_test',
  redisUrl: process.env.TEST_REDIS_URL ?? 'redis://127.0.0.1:6379/1',
  /** Set by the vitest global setup, which starts an s3rver unless one is named. */
  s3Endpoint: process.env.TEST_S3_ENDPOINT ?? 'http://127.0.0.1:4569',
};

/** Environment for an app under test: real services, an ephemeral port, quiet logs. */
export function testAppEnv(overrides: Record<string, string> = {}): NodeJS.ProcessEnv {
  return {
    ...process.env,
    NODE_ENV: 'test',
    PORT: '0',
    LOG_LEVEL: 'warn',
    DATABASE_URL: testEnv.databaseUrl,
    REDIS_URL: testEnv.redisUrl,
    S3_ENDPOINT: testEnv.s3Endpoint,
    S3_REGION: 'us-east-1',
    S3_BUCKET: 'images',
    S3_ACCESS_KEY_ID: 'S3RVER',
    S3_SECRET_ACCESS_KEY: 'S3RVER',
    S3_FORCE_PATH_STYLE: 'true',
    ...overrides,
  };
}
