import type { ServiceName } from '@platform/contracts';
import { createScratchDatabase, leaseRedisDatabase, startOtlpReceiver, testAppEnv, type RedisDatabaseLease, type ScratchDatabase } from '@platform/testing';
import { execFile } from 'node:child_process';
import { randomBytes } from 'node:crypto';
import { readdirSync, readFileSync } from 'node:fs';
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

/** docker/service-modules.mjs, which lays out each image's node_modules (it ships no types). */
const { importedPackages, packageClosure } = (await import(new URL('../service-modules.mjs', import.meta.url).href)) as {
  importedPackages(bundle: string): string[];
  packageClosure(names: string[], root: string, production?: Record<string, string>): string[];
};

/** The npm packages a service's bundles import: main.js, the app and the tracing SDK it may load. */
const packagesOf = (service: string) => {
  const dir = path.join(root, 'dist/apps', service);
  const bundles = readdirSync(dir).filter((file) => file.endsWith('.js'));
  return [...new Set(bundles.flatMap((file) => importedPackages(readFileSync(path.join(dir, file), 'utf8'))))].sort();
};

const runs = (target: string) => dockerfile.all(target, 'RUN').map((run) => run.args);
const copies = (stage: string) => dockerfile.stage(stage).instructions.filter((i) => i.keyword === 'COPY');
const sourcesOf = (copy: Instruction) => copy.args.split(/\s+/).slice(0, -1);

/** Runs a stage's RUN instructions here, in `cwd` (which stands for the stage's WORKDIR). */
async function runStage(stage: string, cwd: string) {
  for (const run of dockerfile.stage(stage).instructions.filter((i) => i.keyword === 'RUN')) {
    await promisify(execFile)('/bin/sh', ['-c', run.args], { cwd });
  }
}

beforeAll(async () => {
  // The build stage's own commands, here: every bundle the images copy, built as the image builds it;
  // then each image's node_modules, laid out from this workspace's as service-modules does.
  await runStage('build', root);
  await runStage('service-modules', root);
}, 180_000);

describe('docker/Dockerfile', () => {
  it('has a target named after each service, and migrate', () => {
    expect(dockerfile.stages.map((stage) => stage.name)).toEqual(expect.arrayContaining(targets));
  });

  it.each(services)('%s: runs its own bundle as a non-root user, commands following the image name', (service) => {
    expect(dockerfile.last(service, 'USER')?.args).toMatch(NON_ROOT_USER);
    expect(execForm(dockerfile.last(service, 'ENTRYPOINT')!)).toEqual(['node', '--enable-source-maps', '--max-semi-space-size=2', 'main.js']);
    expect(execForm(dockerfile.last(service, 'CMD')!)).toEqual(['serve']);
    expect(copies(service).filter((copy) => copy.flags.from === 'build').map(sourcesOf)).toEqual([[`/src/dist/apps/${service}/`]]);
    expect(copies(service).filter((copy) => copy.flags.from === 'service-modules').map(sourcesOf)).toEqual([[`/app/dist/modules/${service}/node_modules/`]]);
  });

  it.each(services)('%s: listens on all interfaces on its own port, and exposes it', (service) => {
    const port = String(SERVICES[service].port);
    expect(dockerfile.all(service, 'EXPOSE').map((expose) => expose.args)).toEqual([port]);
    expect(dockerfile.env(service)).toMatchObject({ PORT: port, HOST: '0.0.0.0', NODE_ENV: 'production' });
  });

  it.each(services)('%s: sets only variables its configuration or the C library reads', (service) => {
    const runtime = ['MALLOC_ARENA_MAX', 'MALLOC_MMAP_THRESHOLD_'];
    expect(dockerfile.env(service)).toMatchObject({ MALLOC_ARENA_MAX: '2', MALLOC_MMAP_THRESHOLD_: '131072' });
    expect(Object.keys(dockerfile.env(service)).filter((name) => !SERVICES[service].env.includes(name) && !runtime.includes(name))).toEqual([]);
  });

  it('migrate sets only variables both migrating services read, and has no health check', () => {
    const both = SERVICES['translate-api'].env.filter((name) => SERVICES['image-api'].env.includes(name));
    // MALLOC_* are read by the C library of every process in every image, not by a service.
    const ofServices = Object.keys(dockerfile.env('migrate')).filter((name) => !name.startsWith('MALLOC_'));
    expect(ofServices.filter((name) => !both.includes(name))).toEqual([]);
    expect(dockerfile.last('migrate', 'USER')?.args).toMatch(NON_ROOT_USER);
    expect(dockerfile.last('migrate', 'HEALTHCHECK')?.args).toBe('NONE');
  });

  it.each(services)('%s: has a health check run by node', (service) => {
    expect(execForm(dockerfile.last(service, 'HEALTHCHECK')!, 'CMD')).toEqual(['node', '/app/healthcheck.mjs']);
  });

  it('installs npm packages from the lock file, for the platform of the images, production ones only in images', () => {
    const image = dockerfile.chain('runtime')[0].base;
    for (const stage of [...targets, 'deps', 'production-deps', 'service-modules']) expect(dockerfile.chain(stage)[0].base, stage).toBe(image);
    expect(dockerfile.stages.filter((stage) => stage.flags.platform)).toEqual([]);
    expect(runs('deps').join('\n')).toMatch(/npm ci --no-audit --no-fund \|\| npm install --no-audit --no-fund/);
    expect(runs('production-deps').join('\n')).toMatch(/npm ci --omit=dev --no-audit --no-fund \|\| npm install --omit=dev --no-audit --no-fund/);
    // Images get node_modules from the production install, cut down to their own by service-modules,
    // and nothing else of the build but bundles (and the Apertium list).
    expect(dockerfile.chain('service-modules').map((stage) => stage.name)).toContain('production-deps');
    const imported = [...targets, 'app-common'].flatMap((stage) => copies(stage).filter((copy) => copy.flags.from && !['app-common', 'apertium-packages'].includes(copy.flags.from)));
    for (const copy of imported) {
      if (copy.flags.from === 'build') expect(sourcesOf(copy)[0]).toMatch(/^\/src\/dist\/apps\/[a-z-]+\/$/);
      else expect(copy).toMatchObject({ flags: { from: 'service-modules' }, args: expect.stringMatching(/^\/app\/dist\/modules\/[a-z-]+\/node_modules\/ \.\/node_modules\/$/) });
    }
  });

  it.each(services)('%s: imports only npm packages that are production dependencies', (service) => {
    const packages = packagesOf(service);
    expect(packages).toEqual(expect.arrayContaining(['@nestjs/core', '@opentelemetry/sdk-node']));
    expect(packages.filter((name) => !(name in dependencies))).toEqual([]);
  });

  it('has in production dependencies the package the HTTP APIs read their /docs page from (not an import, so not in the bundles)', () => {
    for (const service of ['translate-api', 'image-api']) {
      expect(readFileSync(path.join(root, 'dist/apps', service, 'app.js'), 'utf8')).toContain('swagger-ui-dist/package.json');
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
    const lists = (target: string) => dockerfile.chain(target).flatMap((stage) => stage.instructions.filter((i) => i.keyword === 'COPY' && i.flags.from === 'apertium-packages'));
    expect(targets.filter((target) => lists(target).length > 0)).toEqual(['translate-api', 'batch-worker']);
    const [source, destination] = sourcesOf(lists('translate-api')[0]).concat(lists('translate-api')[0].args.split(/\s+/).at(-1)!);
    expect(runs('translate-api').join('\n')).toContain(`xargs -a ${destination} apt-get install`);
    const mount = { source };

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

  it("catalog: runs translate-api's catalog:build as a non-root user beside the translation packages npm start and CI install, /usr/share/locale let in", async () => {
    const copied = copies('catalog').find((copy) => copy.flags.from === 'catalog-packages')!;
    const destination = copied.args.split(/\s+/).at(-1)!;
    const install = runs('catalog').join('\n');
    expect(install).toContain(`xargs -a ${destination} apt-get install -y --no-install-recommends`);
    // Debian's slim images drop /usr/share/locale from every package; the catalogs are the point of this image.
    expect(install.indexOf('/usr/share/locale|d')).toBeLessThan(install.indexOf('apt-get install'));
    expect(install).toMatch(/&& rm -rf \/var\/lib\/apt\/lists\/\*$/);
    expect(dockerfile.last('catalog', 'USER')?.args).toMatch(NON_ROOT_USER);
    expect(execForm(dockerfile.last('catalog', 'CMD')!)).toEqual(['admin', 'catalog:build']);
    expect(dockerfile.last('catalog', 'HEALTHCHECK')?.args).toBe('NONE');
    expect(copies('catalog').filter((copy) => copy.flags.from === 'build').map(sourcesOf)).toEqual([['/src/dist/apps/translate-api/']]);

    const list = layOutImage(dockerfile, 'catalog-packages', root);
    try {
      await runStage('catalog-packages', list.workdir);
      const { CATALOG_PACKAGES } = await import(pathToFileURL(path.join(root, 'tools/stack/catalog-packages.mjs')).href);
      expect(CATALOG_PACKAGES).toContain('libreoffice-l10n-de');
      expect(readFileSync(list.local(sourcesOf(copied)[0]), 'utf8').trim().split('\n')).toEqual(CATALOG_PACKAGES);
    } finally {
      list.remove();
    }
  });

  it('builds with buildah 1.28 (podman) as with BuildKit: no HEALTHCHECK --start-interval, no RUN --mount of another stage', () => {
    const instructions = dockerfile.stages.flatMap((stage) => stage.instructions);
    expect(instructions.filter((i) => i.keyword === 'HEALTHCHECK' && 'start-interval' in i.flags)).toEqual([]);
    expect(instructions.filter((i) => i.keyword === 'RUN' && /(^|,)from=/.test(i.flags.mount ?? ''))).toEqual([]);
  });

  it('gives npm a CA bundle only as a build secret, so that none is left in any layer', () => {
    for (const stage of ['deps', 'production-deps']) {
      const [install] = runs(stage);
      expect(install).toMatch(/^if \[ -f \/run\/secrets\/npm-ca \]; then export NPM_CONFIG_CAFILE=\/run\/secrets\/npm-ca; fi;/);
    }
    const instructions = dockerfile.stages.flatMap((stage) => stage.instructions);
    expect(instructions.filter((i) => i.keyword !== 'RUN' && /ca-certificates|npm-ca|cafile|extra_ca_certs/i.test(i.args))).toEqual([]);
  });

  it.each(services)('%s: carries only the production packages its bundles need', (service) => {
    const modules = path.join(root, 'dist/modules', service);
    const carried = packageClosure(packagesOf(service), modules, dependencies).map((dir) => path.relative(modules, dir));
    // Everything they need is there (packageClosure throws otherwise), and nothing else.
    expect(carried.length).toBeGreaterThan(0);
    expect(packageClosure(packagesOf(service), root).map((dir) => path.relative(root, dir))).toEqual(carried);
    // What turning tracing on needs: the SDK, and the ESM loader hook that tracing.js registers by name.
    expect(carried).toEqual(expect.arrayContaining(['node_modules/@opentelemetry/sdk-node', 'node_modules/@opentelemetry/instrumentation', 'node_modules/import-in-the-middle']));
    const others = { 'image-api': ['sharp', '@aws-sdk/client-s3'], console: ['react', 'react-dom', 'react-router', '@tanstack/react-query'] };
    for (const [owner, packages] of Object.entries(others)) {
      if (owner === service || (owner === 'image-api' && service === 'image-worker')) continue;
      expect(packages.filter((name) => carried.includes(`node_modules/${name}`)), `${service} carries packages of ${owner}`).toEqual([]);
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
    // As its deployment sets it (deploy/base/console/config.env): in production the console refuses to start without its https address.
    ...(target === 'console' ? { CONSOLE_PUBLIC_URL: 'https://console.example.eu' } : {}),
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

  it('translate-api: exports the traces the OTEL_* variables ask for with the packages of its image alone', { timeout: 90_000 }, async () => {
    const collector = await startOtlpReceiver();
    const tracing = { OTEL_EXPORTER_OTLP_ENDPOINT: collector.url, OTEL_EXPORTER_OTLP_PROTOCOL: 'http/json' };
    const container = startContainer(image('translate-api'), commandLine('translate-api'), env('translate-api', tracing), 'translate-api');
    try {
      // Plain HTTP in production mode: refused with 403, and traced all the same.
      expect((await fetch(new URL('/api/v1/languages', await container.listening))).status).toBe(403);
      expect(await container.stop()).toBe(0);
      expect(collector.spans.find((span) => span.attributes['http.route'] === '/api/v1/languages')).toMatchObject({ service: 'translate-api', attributes: { 'http.response.status_code': 403 } });
    } finally {
      await container.stop();
      await collector.stop();
    }
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
