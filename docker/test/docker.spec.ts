import type { ServiceName } from '@platform/contracts';
import { createScratchDatabase, leaseRedisDatabase, testAppEnv, type RedisDatabaseLease, type ScratchDatabase } from '@platform/testing';
import { execFile } from 'node:child_process';
import { randomBytes } from 'node:crypto';
import { readFileSync } from 'node:fs';
import { builtinModules } from 'node:module';
import path from 'node:path';
import { fileURLToPath, pathToFileURL } from 'node:url';
import { promisify } from 'node:util';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { SERVICES } from '../../deploy/test/service-contract';
import { readBuildContext } from './build-context.filter';
import { runInContainer, startContainer, type ContainerRun } from './container.runner';
import { execForm, parseDockerfile, type Instruction } from './dockerfile.parser';
import { layOutImage, type ImageLayout } from './image-layout.builder';

const root = fileURLToPath(new URL('../../', import.meta.url));
const dockerfile = parseDockerfile(readFileSync(path.join(root, 'docker/Dockerfile'), 'utf8'));
const services = Object.keys(SERVICES) as ServiceName[];
const targets = [...services, 'migrate'];
const dependencies: Record<string, string> = JSON.parse(readFileSync(path.join(root, 'package.json'), 'utf8')).dependencies;

/** A numeric user other than root (0), so that a runtime can verify it before starting the container. */
const NON_ROOT_USER = /^[1-9]\d*(:\d+)?$/;

const runs = (target: string) => dockerfile.all(target, 'RUN').map((run) => run.args);
const copies = (stage: string) => dockerfile.stage(stage).instructions.filter((i) => i.keyword === 'COPY');
const sourcesOf = (copy: Instruction) => copy.args.split(/\s+/).slice(0, -1);
/** `type=bind,from=x,source=/a` -> { type: 'bind', from: 'x', source: '/a' } */
const mountOf = (run: Instruction): Record<string, string> => Object.fromEntries((run.flags.mount ?? '').split(',').map((part) => part.split('=') as [string, string]));

/** Runs a stage's RUN instructions here, in `cwd` (which stands for the stage's WORKDIR). */
async function runStage(stage: string, cwd: string) {
  for (const run of dockerfile.stage(stage).instructions.filter((i) => i.keyword === 'RUN')) {
    await promisify(execFile)('/bin/sh', ['-c', run.args], { cwd });
  }
}

/** The npm packages a bundle loads: its import statements and dynamic imports (esbuild keeps them as written). */
function importedPackages(bundle: string): string[] {
  const specifiers = [...bundle.matchAll(/^import\s(?:[^;]*?\sfrom\s)?"([^"]+)";?$/gm), ...bundle.matchAll(/\bimport\("([^"]+)"\)/g)].map((match) => match[1]);
  const packages = specifiers
    .filter((specifier) => !specifier.startsWith('node:') && !builtinModules.includes(specifier))
    .map((specifier) => specifier.split('/').slice(0, specifier.startsWith('@') ? 2 : 1).join('/'));
  return [...new Set(packages)].sort();
}

beforeAll(async () => {
  // The build stage's own commands, here: every bundle the images copy, built as the image builds it.
  await runStage('build', root);
}, 120_000);

describe('docker/Dockerfile', () => {
  it('has a target named after each service, and migrate', () => {
    expect(dockerfile.stages.map((stage) => stage.name)).toEqual(expect.arrayContaining(targets));
  });

  it.each(services)('%s: runs its own bundle as a non-root user, commands following the image name', (service) => {
    expect(dockerfile.last(service, 'USER')?.args).toMatch(NON_ROOT_USER);
    expect(execForm(dockerfile.last(service, 'ENTRYPOINT')!)).toEqual(['node', '--enable-source-maps', 'main.js']);
    expect(execForm(dockerfile.last(service, 'CMD')!)).toEqual(['serve']);
    expect(copies(service).filter((copy) => copy.flags.from === 'build').map(sourcesOf)).toEqual([[`/src/dist/apps/${service}/`]]);
  });

  it.each(services)('%s: listens on all interfaces on its own port, and exposes it', (service) => {
    const port = String(SERVICES[service].port);
    expect(dockerfile.all(service, 'EXPOSE').map((expose) => expose.args)).toEqual([port]);
    expect(dockerfile.env(service)).toMatchObject({ PORT: port, HOST: '0.0.0.0', NODE_ENV: 'production' });
  });

  it.each(services)('%s: sets only variables its configuration reads', (service) => {
    expect(Object.keys(dockerfile.env(service)).filter((name) => !SERVICES[service].env.includes(name))).toEqual([]);
  });

  it('migrate sets only variables both migrating services read, and has no health check', () => {
    const both = SERVICES['translate-api'].env.filter((name) => SERVICES['image-api'].env.includes(name));
    expect(Object.keys(dockerfile.env('migrate')).filter((name) => !both.includes(name))).toEqual([]);
    expect(dockerfile.last('migrate', 'USER')?.args).toMatch(NON_ROOT_USER);
    expect(dockerfile.last('migrate', 'HEALTHCHECK')?.args).toBe('NONE');
  });

  it.each(services)('%s: has a health check run by node', (service) => {
    expect(execForm(dockerfile.last(service, 'HEALTHCHECK')!, 'CMD')).toEqual(['node', '/app/healthcheck.mjs']);
  });

  it('installs npm packages from the lock file, for the platform of the images, production ones only in images', () => {
    const image = dockerfile.chain('runtime')[0].base;
    for (const stage of [...targets, 'deps', 'production-deps']) expect(dockerfile.chain(stage)[0].base, stage).toBe(image);
    expect(dockerfile.stages.filter((stage) => stage.flags.platform)).toEqual([]);
    expect(runs('deps').join('\n')).toMatch(/npm ci --no-audit --no-fund \|\| npm install --no-audit --no-fund/);
    expect(runs('production-deps').join('\n')).toMatch(/npm ci --omit=dev --no-audit --no-fund \|\| npm install --omit=dev --no-audit --no-fund/);
    // Images get node_modules from production-deps and nothing else of the build but bundles.
    const imported = [...targets, 'app-common'].flatMap((stage) => copies(stage).filter((copy) => copy.flags.from && copy.flags.from !== 'app-common'));
    for (const copy of imported) {
      if (copy.flags.from === 'build') expect(sourcesOf(copy)[0]).toMatch(/^\/src\/dist\/apps\/[a-z-]+\/$/);
      else expect(copy).toMatchObject({ flags: { from: 'production-deps' }, args: expect.stringMatching(/^\/app\/node_modules\/ /) });
    }
  });

  it.each(services)('%s: imports only npm packages that are production dependencies', (service) => {
    const packages = importedPackages(readFileSync(path.join(root, 'dist/apps', service, 'main.js'), 'utf8'));
    expect(packages).toContain('@nestjs/core');
    expect(packages.filter((name) => !(name in dependencies))).toEqual([]);
  });

  it('has in production dependencies the package the HTTP APIs read their /docs page from (not an import, so not in the bundles)', () => {
    for (const service of ['translate-api', 'image-api']) {
      expect(readFileSync(path.join(root, 'dist/apps', service, 'main.js'), 'utf8')).toContain('swagger-ui-dist/package.json');
    }
    expect(dependencies).toHaveProperty('swagger-ui-dist');
  });

  it('runs no npm in images, and leaves no apt package lists behind', () => {
    for (const target of targets) {
      for (const run of runs(target)) {
        expect(run).not.toMatch(/\bnpm\b/);
        if (run.includes('apt-get')) expect(run).toMatch(/apt-get install -y --no-install-recommends[\s\S]*&& rm -rf \/var\/lib\/apt\/lists\/\*$/);
      }
    }
  });

  it('installs Apertium in translate-api and batch-worker only, from the list npm start and CI install', async () => {
    const installs = (target: string) => dockerfile.all(target, 'RUN').filter((run) => mountOf(run).from === 'apertium-packages');
    expect(targets.filter((target) => installs(target).length > 0)).toEqual(['translate-api', 'batch-worker']);
    const [install] = installs('translate-api');
    const mount = mountOf(install);
    expect(install.args).toContain(`xargs -a ${mount.target} apt-get install`);

    const list = layOutImage(dockerfile, 'apertium-packages', root);
    try {
      await runStage('apertium-packages', list.workdir);
      const { APERTIUM_PACKAGES } = await import(pathToFileURL(path.join(root, 'tools/stack/apertium.mjs')).href);
      expect(APERTIUM_PACKAGES).toContain('apertium');
      expect(readFileSync(list.local(mount.source), 'utf8').trim().split('\n')).toEqual(APERTIUM_PACKAGES);
    } finally {
      list.remove();
    }
  });

  it('gets what it copies from the build context, and never host builds, local data or tests', () => {
    const inContext = readBuildContext(root);
    const fromContext = dockerfile.stages.flatMap((stage) => stage.instructions).filter((i) => i.keyword === 'COPY' && !i.flags.from);
    expect(fromContext.flatMap(sourcesOf).filter((source) => !inContext(source))).toEqual([]);
    const kept = ['node_modules/sharp/package.json', 'dist/apps/image-api/main.js', '.data/sandbox-key', '.git/HEAD', 'docker/compose.yml', 'apps/image-api/src/health/health.spec.ts'];
    expect(kept.filter(inContext)).toEqual([]);
  });
});

describe('images laid out from docker/Dockerfile, run without Docker', () => {
  const layouts = new Map<string, ImageLayout>();
  const image = (target: string) => {
    if (!layouts.has(target)) layouts.set(target, layOutImage(dockerfile, target, root));
    return layouts.get(target)!;
  };
  let redis: RedisDatabaseLease;
  const bucket = `docker-${randomBytes(4).toString('hex')}`;

  beforeAll(async () => {
    // Workers started here must not take jobs queued by other test files.
    redis = await leaseRedisDatabase();
  });
  afterAll(async () => {
    layouts.forEach((layout) => layout.remove());
    await redis?.release();
  });

  /** `docker run -e ...`: the image's variables, then this machine's test services, on loopback. */
  const env = (target: string, overrides: Record<string, string> = {}) => ({
    ...testAppEnv({ REDIS_URL: redis.url, S3_BUCKET: bucket }),
    ...dockerfile.env(target),
    HOST: '127.0.0.1',
    PORT: '0',
    LOG_LEVEL: 'info',
    ...overrides,
  });
  /** `docker run <image> [args]`: the ENTRYPOINT with the arguments, or with CMD. */
  const commandLine = (target: string, args?: string[]) => [...execForm(dockerfile.last(target, 'ENTRYPOINT')!), ...(args ?? execForm(dockerfile.last(target, 'CMD')!))];
  const healthcheck = (target: string) => execForm(dockerfile.last(target, 'HEALTHCHECK')!, 'CMD');

  /** Starts `service` from its image, runs its HEALTHCHECK against it, stops it; returns the check and the exit code. */
  async function checkHealth(service: ServiceName, overrides: Record<string, string> = {}): Promise<{ check: ContainerRun; exitCode: number | null }> {
    const container = startContainer(image(service), commandLine(service), env(service, overrides), service);
    try {
      const { port } = new URL(await container.listening);
      return { check: await runInContainer(image(service), healthcheck(service), env(service, { ...overrides, PORT: port })), exitCode: await container.stop() };
    } finally {
      await container.stop();
    }
  }

  it.each(services)('%s: serves in production mode, passes its HEALTHCHECK and stops cleanly on SIGTERM', async (service) => {
    const { check, exitCode } = await checkHealth(service);
    expect(check.code, check.stderr).toBe(0);
    expect(exitCode).toBe(0);
  });

  it('fails the HEALTHCHECK, naming the dependency, while one is down', async () => {
    const { check } = await checkHealth('webhook-dispatcher', { REDIS_URL: 'redis://127.0.0.1:1', SHUTDOWN_TIMEOUT_MS: '1000' });
    expect(check.code).toBe(1);
    expect(check.stderr).toMatch(/^unhealthy: 503 .*redis/);
  });

  describe('on a fresh database', () => {
    let databaseUrl: string;
    let scratch: ScratchDatabase;
    const migrate = () => runInContainer(image('migrate'), commandLine('migrate'), env('migrate', { DATABASE_URL: databaseUrl }));
    let first: ContainerRun;

    beforeAll(async () => {
      scratch = await createScratchDatabase('platform_docker');
      databaseUrl = scratch.url;
      first = await migrate();
    });
    afterAll(() => scratch?.drop());

    it('migrate applies the migrations of both schemas, then finds nothing left to do', async () => {
      expect(first.code, first.stderr).toBe(0);
      expect(first.stdout.trim().split('\n')).toEqual([expect.stringMatching(/^applied: /), expect.stringMatching(/^applied: /)]);
      const again = await migrate();
      expect(again.code, again.stderr).toBe(0);
      expect(again.stdout.trim().split('\n')).toEqual(['translation schema is up to date', 'image schema is up to date']);
    });

    it.each([
      // key:create needs an existing account: only account:create makes one.
      ['translate-api', [['account:create', 'docker'], ['key:create', '--account', 'docker', '--sandbox']], /^svc_test_/],
      ['image-api', [['token:create', '--plan', 'free']], /^img_/],
    ] as const)('%s: runs operator commands given after the image name', async (service, commands, secret) => {
      for (const command of commands) {
        const run = await runInContainer(image(service), commandLine(service, ['admin', ...command]), env(service, { DATABASE_URL: databaseUrl }));
        expect(run.code, run.stderr).toBe(0);
        if (command === commands.at(-1)) expect(run.lastLine).toMatch(secret);
      }
    });
  });
});
