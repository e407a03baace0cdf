import { HeadBucketCommand } from '@aws-sdk/client-s3';
import { Test, TestingModule } from '@nestjs/testing';
import { ConfigError, HealthModule, HealthRegistry, loadConfig, MetricsRegistry } from '@platform/service-kit';
import { testAppEnv } from '@platform/testing';
import { randomUUID } from 'node:crypto';
import { afterEach, describe, expect, it } from 'vitest';
import { StorageConfig } from './storage.config';
import { createS3Client, StorageModule } from './storage.module';

const opened: TestingModule[] = [];

async function startStorage(overrides: Record<string, string>) {
  const config = loadConfig(StorageConfig, testAppEnv(overrides));
  const moduleRef = await Test.createTestingModule({ imports: [HealthModule, StorageModule.forRoot(config)] }).compile();
  moduleRef.useLogger(false);
  await moduleRef.init();
  opened.push(moduleRef);
  return { config, health: moduleRef.get(HealthRegistry), metrics: moduleRef.get(MetricsRegistry) };
}

const uniqueBucket = () => `test-${randomUUID().slice(0, 8)}`;

/** `s3_requests_total` as "operation outcome" -> count. */
async function s3Requests(metrics: MetricsRegistry): Promise<Record<string, number>> {
  const { values } = await metrics.registry.getSingleMetric('s3_requests_total')!.get();
  return Object.fromEntries(values.map(({ labels, value }) => [`${labels.operation} ${labels.outcome}`, value]));
}

afterEach(async () => {
  await Promise.all(opened.splice(0).map((m) => m.close()));
});

describe('StorageModule against a real S3 server', () => {
  it('creates its bucket at start when it is missing and reports S3 up, its requests counted by operation and outcome', async () => {
    const { config, health, metrics } = await startStorage({ S3_BUCKET: uniqueBucket() });

    const head = await createS3Client(config).send(new HeadBucketCommand({ Bucket: config.S3_BUCKET }));
    expect(head.$metadata.httpStatusCode).toBe(200);
    expect((await health.report()).checks.s3).toEqual({ status: 'up' });
    // The first look finds no bucket (404), then it is created, then /health looks again.
    expect(await s3Requests(metrics)).toEqual({ 'HeadBucket client_error': 1, 'CreateBucket ok': 1, 'HeadBucket ok': 1 });
  });

  it('tolerates replicas creating the same bucket at the same time', async () => {
    const bucket = uniqueBucket();
    const replicas = await Promise.all([1, 2, 3].map(() => startStorage({ S3_BUCKET: bucket })));

    for (const { health } of replicas) expect((await health.report()).checks.s3).toEqual({ status: 'up' });
  });

  it('starts while S3 is unreachable and reports it down', async () => {
    const { health, metrics } = await startStorage({ S3_ENDPOINT: 'http://127.0.0.1:1' });

    const report = await health.report();
    expect(report.status).toBe('error');
    expect(report.checks.s3).toMatchObject({ status: 'down', error: expect.stringContaining('ECONNREFUSED') });
    expect(await s3Requests(metrics)).toMatchObject({ 'HeadBucket unreachable': expect.any(Number) });
  });
});

describe('StorageConfig', () => {
  it('defaults to the local s3rver with path-style addressing', () => {
    const config = loadConfig(StorageConfig, {});
    expect(config).toMatchObject({
      S3_ENDPOINT: 'http://127.0.0.1:4569',
      S3_REGION: 'us-east-1',
      S3_BUCKET: 'images',
      S3_ACCESS_KEY_ID: 'S3RVER',
      S3_SECRET_ACCESS_KEY: 'S3RVER',
      S3_FORCE_PATH_STYLE: true,
    });
  });

  it('names every invalid variable', () => {
    const load = () => loadConfig(StorageConfig, { S3_ENDPOINT: 'not a url', S3_BUCKET: 'Not_A_Bucket', S3_FORCE_PATH_STYLE: 'maybe' });
    expect(load).toThrow(ConfigError);
    expect(load).toThrow(/S3_ENDPOINT="not a url"[\s\S]*S3_BUCKET="Not_A_Bucket"[\s\S]*S3_FORCE_PATH_STYLE="maybe"/);
  });
});
