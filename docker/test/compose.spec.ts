import type { ServiceName } from '@platform/contracts';
import { Ajv } from 'ajv';
import { existsSync, readFileSync } from 'node:fs';
import { createRequire } from 'node:module';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { describe, expect, it } from 'vitest';
import { parse } from 'yaml';
import { SERVICES } from '../../deploy/test/service-contract';
import { execForm, parseDockerfile } from './dockerfile.parser';

interface ComposeService {
  image?: string;
  build?: { context: string; dockerfile: string; target: string };
  environment?: Record<string, string | number | boolean>;
  ports?: string[];
  depends_on?: Record<string, { condition: string }>;
  healthcheck?: { test: string[]; disable?: boolean };
  entrypoint?: string[];
  command?: string[];
  volumes?: string[];
}

const dir = fileURLToPath(new URL('..', import.meta.url));
const source = readFileSync(path.join(dir, 'compose.yml'), 'utf8');

/** `${NAME:-default}` and `${NAME}`, not `$${...}` (a literal `$`). */
const VARIABLE = /(?<!\$)\$\{([A-Za-z_][A-Za-z0-9_]*)(?::-([^}]*))?\}/g;

/**
 * The file as Compose reads it with `variables` set and everything else unset: interpolated, then
 * parsed. Compose resolves `<<` merge keys, which YAML 1.2 parsers leave alone unless asked.
 */
function loadCompose(variables: Record<string, string> = {}) {
  const interpolated = source.replace(VARIABLE, (_, name: string, fallback?: string) => variables[name] || fallback || '');
  return parse(interpolated, { merge: true }) as { services: Record<string, ComposeService> };
}
const compose = loadCompose();
const dockerfile = parseDockerfile(readFileSync(path.join(dir, 'Dockerfile'), 'utf8'));
const services = Object.keys(SERVICES) as ServiceName[];
const service = (name: string) => compose.services[name];
const env = (name: string) => Object.fromEntries(Object.entries(service(name).environment ?? {}).map(([key, value]) => [key, String(value)]));

/** `[ip:]host:container` of a port entry. */
function published(port: string) {
  const parts = port.split(':');
  return { ip: parts.length === 3 ? parts[0] : undefined, host: Number(parts.at(-2)), container: Number(parts.at(-1)) };
}

/** The URL of a service variable, checked to be one. */
const url = (name: string, variable: string) => new URL(env(name)[variable]);

/** What the Compose specification's schema (dclint's copy) finds wrong with a Compose file's text. */
function composeSchemaErrors(text: string) {
  const schemaFile = path.join(path.dirname(createRequire(import.meta.url).resolve('dclint/package.json')), 'schemas/compose.schema.json');
  const schema = JSON.parse(readFileSync(schemaFile, 'utf8'));
  // It names its draft by an https address Ajv does not know; Ajv's default draft is that one (07).
  delete schema.$schema;
  const validate = new Ajv({ allErrors: true, strict: false, allowUnionTypes: true }).compile(schema);
  validate(parse(text, { merge: true }));
  return validate.errors ?? [];
}

describe('docker/compose.yml', () => {
  it('is a valid Compose file', () => {
    expect(composeSchemaErrors(source)).toEqual([]);
  });

  it('runs every service, each built from its own Dockerfile target with the repository as context', () => {
    for (const name of services) {
      expect(service(name)?.build, name).toMatchObject({ context: '..', dockerfile: 'docker/Dockerfile', target: name });
    }
    expect(existsSync(path.join(dir, '..', 'docker/Dockerfile'))).toBe(true);
  });

  it.each(services)('%s: gets only variables its configuration reads', (name) => {
    expect(Object.keys(env(name)).filter((variable) => !SERVICES[name].env.includes(variable))).toEqual([]);
  });

  it.each(services)('%s: publishes its own port on loopback only, on a host port its own variable moves', (name) => {
    const { port } = SERVICES[name];
    const [own] = service(name).ports!.map(published);
    expect(service(name).ports?.map(published)).toEqual([{ ip: '127.0.0.1', host: own.host, container: port }]);
    // Next to `npm start`, which takes the services' own ports.
    expect(Object.values(SERVICES).map((contract) => contract.port)).not.toContain(own.host);
    const variable = `${name.toUpperCase().replace(/-/g, '_')}_HOST_PORT`;
    expect(loadCompose({ [variable]: '45678' }).services[name].ports?.map(published)).toEqual([{ ip: '127.0.0.1', host: 45678, container: port }]);
  });

  it('publishes every host port on a port of its own', () => {
    const hosts = Object.values(compose.services).flatMap((definition) => (definition.ports ?? []).map((port) => published(port).host));
    expect(new Set(hosts).size).toBe(hosts.length);
  });

  // podman-compose 1.0.3 reads `${X:-}` as a literal, so every variable has a non-empty default.
  it('gives every variable a non-empty default, so that podman-compose 1.0.3 and Docker read the same file', () => {
    const variables = [...source.matchAll(VARIABLE)].map(([text, , fallback]) => ({ text, fallback }));
    expect(variables.length).toBeGreaterThan(0);
    expect(variables.filter(({ fallback }) => !fallback)).toEqual([]);
  });

  it('names the host machine by variables: host-gateway for Docker, an address for podman (which has no host-gateway)', () => {
    for (const name of ['translate-api', 'webhook-dispatcher', 'console']) {
      expect((service(name) as { extra_hosts?: string[] }).extra_hosts, name).toEqual(['host.docker.internal:host-gateway']);
      expect((loadCompose({ HOST_GATEWAY: '10.89.0.1' }).services[name] as { extra_hosts?: string[] }).extra_hosts, name).toEqual(['host.docker.internal:10.89.0.1']);
    }
    expect(env('webhook-dispatcher').WEBHOOK_ALLOWED_HOSTS).toBe('host.docker.internal');
  });

  it('names its images by variables, so that a registry of its own or locally built base images can stand in', () => {
    for (const name of services) expect(service(name).image, name).toBe(`eu-platform/${name}:latest`);
    const moved = loadCompose({ IMAGE_PREFIX: 'registry.example/platform/', IMAGE_TAG: '1.2.3', POSTGRES_IMAGE: 'localhost/postgres:16' });
    expect(moved.services['translate-api'].image).toBe('registry.example/platform/translate-api:1.2.3');
    expect(moved.services.postgres.image).toBe('localhost/postgres:16');
    expect((service('translate-api').build as { args?: Record<string, string> }).args).toEqual({ NODE_IMAGE: 'node:22-bookworm-slim' });
  });

  // The image's check GETs /health (docker.spec.ts runs it against each service).
  it.each(services)('%s: keeps the health check of its image', (name) => {
    expect(service(name).healthcheck).toBeUndefined();
    expect(execForm(dockerfile.last(name, 'HEALTHCHECK')!, 'CMD')).toEqual(['node', '/app/healthcheck.mjs']);
  });

  it('waits for a health check only where there is one', () => {
    for (const [name, definition] of Object.entries(compose.services)) {
      for (const [dependency, { condition }] of Object.entries(definition.depends_on ?? {})) {
        if (condition !== 'service_healthy') continue;
        const target = service(dependency).build?.target;
        const checked = service(dependency).healthcheck?.test ?? (target && dockerfile.last(target, 'HEALTHCHECK')?.args !== 'NONE');
        expect(checked, `${name} waits for ${dependency} to be healthy`).toBeTruthy();
      }
    }
  });

  it('migrates both schemas once Postgres is up, before any service starts', () => {
    expect(service('migrate').build).toMatchObject({ dockerfile: 'docker/Dockerfile', target: 'migrate' });
    expect(service('migrate').depends_on).toEqual({ postgres: { condition: 'service_healthy' } });
    const both = SERVICES['translate-api'].env.filter((variable) => SERVICES['image-api'].env.includes(variable));
    expect(Object.keys(env('migrate')).filter((variable) => !both.includes(variable))).toEqual([]);
    expect(env('migrate').DATABASE_URL).toBe(env('translate-api').DATABASE_URL);
    for (const name of services) {
      expect(service(name).depends_on, name).toMatchObject({
        migrate: { condition: 'service_completed_successfully' },
        postgres: { condition: 'service_healthy' },
        redis: { condition: 'service_healthy' },
      });
    }
  });

  it("connects every service to the stack's Postgres and Redis, with Postgres' own credentials", () => {
    const postgres = env('postgres');
    for (const name of [...services, 'migrate']) {
      const database = url(name, 'DATABASE_URL');
      expect({ host: database.host, user: database.username, password: database.password, database: database.pathname }, name).toEqual({
        host: 'postgres:5432',
        user: postgres.POSTGRES_USER,
        password: postgres.POSTGRES_PASSWORD,
        database: `/${postgres.POSTGRES_DB}`,
      });
      expect(url(name, 'REDIS_URL').host, name).toBe('redis:6379');
    }
  });

  it("stores images in MinIO's bucket, its converted images made publicly readable before the image services start, and serves them from there", () => {
    const minio = env('minio');
    const bucket = env('minio-init').BUCKET;
    const admin = url('minio-init', 'MC_HOST_local');
    expect({ host: admin.host, user: admin.username, password: admin.password }).toEqual({ host: 'minio:9000', user: minio.MINIO_ROOT_USER, password: minio.MINIO_ROOT_PASSWORD });
    expect(service('minio-init').command?.join(' ')).toMatch(/mc mb --ignore-existing "local\/\$\$BUCKET" && mc anonymous set-json \/etc\/bucket-policy.json "local\/\$\$BUCKET"/);
    expect(service('minio-init').volumes).toEqual(['./bucket-policy.json:/etc/bucket-policy.json:ro']);
    expect(service('minio-init').depends_on).toEqual({ minio: { condition: 'service_healthy' } });

    for (const name of ['image-api', 'image-worker'] as const) {
      expect(env(name), name).toMatchObject({
        S3_ENDPOINT: 'http://minio:9000',
        S3_BUCKET: bucket,
        S3_ACCESS_KEY_ID: minio.MINIO_ROOT_USER,
        S3_SECRET_ACCESS_KEY: minio.MINIO_ROOT_PASSWORD,
      });
      expect(service(name).depends_on?.['minio-init'], name).toEqual({ condition: 'service_completed_successfully' });
    }
    // CDN addresses are for clients on this machine: MinIO's published port, the bucket's path.
    for (const variables of [{}, { MINIO_HOST_PORT: '45679' }] as Record<string, string>[]) {
      const stack = loadCompose(variables);
      const [minioPort] = stack.services.minio.ports!.map(published);
      expect(minioPort).toEqual({ ip: '127.0.0.1', host: Number(variables.MINIO_HOST_PORT ?? 19000), container: 9000 });
      expect(stack.services['image-api'].environment?.CDN_URL).toBe(`http://127.0.0.1:${minioPort.host}/${bucket}`);
    }
  });

  it('lets anonymous clients read converted images at the top of the bucket and nothing else: no listing, no pending sources', () => {
    const bucket = env('minio-init').BUCKET;
    const policy = JSON.parse(readFileSync(path.join(dir, 'bucket-policy.json'), 'utf8'));
    expect(policy.Statement).toEqual([
      {
        Sid: expect.any(String),
        Effect: 'Allow',
        Principal: { AWS: ['*'] },
        Action: ['s3:GetObject'],
        Resource: [`arn:aws:s3:::${bucket}/*.webp`, `arn:aws:s3:::${bucket}/*.avif`],
      },
    ]);
  });

  it('uses images of a fixed version', () => {
    const images = Object.values(compose.services).flatMap((definition) => (definition.build ? [] : (definition.image ?? [])));
    expect(images.length).toBeGreaterThan(0);
    expect(images.filter((image) => !/:(?!latest$)[\w.-]+$/.test(image))).toEqual([]);
  });
});

describe('docker/compose.monitoring.yml', () => {
  const text = readFileSync(path.join(dir, 'compose.monitoring.yml'), 'utf8');
  const monitoring = parse(text.replace(VARIABLE, (_, _name: string, fallback?: string) => fallback ?? '')) as { services: Record<string, ComposeService> };

  it('is a valid Compose file', () => {
    expect(composeSchemaErrors(text)).toEqual([]);
  });

  it("mounts the repository's own Prometheus, Alertmanager and Grafana files, which exist", () => {
    const sources = Object.values(monitoring.services).flatMap((definition) => (definition.volumes ?? []).map((volume) => volume.split(':')[0]));
    expect(sources.sort()).toEqual(['../deploy/base/monitoring/dashboards', '../deploy/monitoring', '../deploy/monitoring/alertmanager.yml', './grafana/provisioning']);
    for (const source of sources) expect(existsSync(path.join(dir, source)), source).toBe(true);
  });

  it('publishes on loopback only, on host ports of its own', () => {
    const ports = Object.values(monitoring.services).flatMap((definition) => (definition.ports ?? []).map(published));
    expect(ports.every((port) => port.ip === '127.0.0.1')).toBe(true);
    const taken = Object.values(compose.services).flatMap((definition) => (definition.ports ?? []).map((port) => published(port).host));
    expect(ports.filter((port) => taken.includes(port.host))).toEqual([]);
  });
});
