#!/usr/bin/env node
// `npm run images`: builds every image docker/compose.yml runs from docker/Dockerfile (the six
// services and migrate) with podman or Docker, on the base images of base-images.mjs, and prints
// their sizes. The names are those the compose file expects: IMAGE_PREFIX (eu-platform/) and
// IMAGE_TAG (latest). npm's CA bundle goes to the build as the secret `npm-ca`, in no image.
import { fileURLToPath } from 'node:url';
import path from 'node:path';
import { APPS } from '../stack/apps.mjs';
import { log, ROOT, runMain } from '../stack/common.mjs';
import { baseImages } from './base-images.mjs';
import { detectEngine, npmCaFile } from './engine.mjs';

export const TARGETS = ['migrate', ...APPS];

/** The compose file's defaults: eu-platform/translate-api:latest... */
export const IMAGE_PREFIX = process.env.IMAGE_PREFIX || 'eu-platform/';
export const IMAGE_TAG = process.env.IMAGE_TAG || 'latest';
export const imageName = (target) => `${IMAGE_PREFIX}${target}:${IMAGE_TAG}`;

/** Builds each target in turn (later ones reuse the shared stages); returns seconds and bytes per image. */
export async function buildServiceImages(engine, nodeImage, { targets = TARGETS } = {}) {
  const caFile = await npmCaFile();
  const built = [];
  for (const target of targets) {
    const startedAt = Date.now();
    log(`building ${imageName(target)}`);
    await engine.build({
      file: path.join(ROOT, 'docker/Dockerfile'),
      context: ROOT,
      tag: imageName(target),
      target,
      buildArgs: { NODE_IMAGE: nodeImage },
      secrets: caFile ? { 'npm-ca': caFile } : {},
    });
    built.push({ target, image: imageName(target), seconds: (Date.now() - startedAt) / 1000, bytes: await engine.imageSize(imageName(target)) });
  }
  return built;
}

export const megabytes = (bytes) => `${Math.round(bytes / 1e6)} MB`;

if (process.argv[1] === fileURLToPath(import.meta.url)) {
  runMain(async () => {
    const engine = detectEngine();
    const { source, images } = await baseImages(engine);
    log(`${engine.name}, ${source} base images (Node: ${images.NODE_IMAGE})`);
    const built = await buildServiceImages(engine, images.NODE_IMAGE, { targets: process.argv.length > 2 ? process.argv.slice(2) : TARGETS });
    for (const { image, seconds, bytes } of built) console.log(`${image.padEnd(40)} ${megabytes(bytes).padStart(8)}  built in ${seconds.toFixed(0)} s`);
    // docker/compose.yml names the infrastructure's images by these variables.
    if (source === 'local') for (const [name, image] of Object.entries(images)) console.log(`export ${name}=${image}`);
  });
}
