// The container engine the image and compose tools drive: podman (with podman-compose) or Docker
// (with compose v2), the same commands and files for both. CONTAINER_ENGINE picks one; otherwise
// podman when it is installed, else docker.
import { existsSync } from 'node:fs';
import path from 'node:path';
import { commandExists, ROOT, run, StackError } from '../stack/common.mjs';

/** Settings podman needs on machines like CI's (runc, lower ulimits); see docs/operations.md. */
export const PODMAN_CONF = path.join(ROOT, 'docker/podman/containers.conf');

/**
 * The CA bundle npm uses during image builds, passed as the build secret `npm-ca` (in no image):
 * NPM_CA_FILE, else npm's own `cafile` setting when it names a file, else the bundle Node is
 * told to trust (NODE_EXTRA_CA_CERTS), else none.
 */
export async function npmCaFile() {
  if (process.env.NPM_CA_FILE !== undefined) return process.env.NPM_CA_FILE || null;
  const { stdout } = await run('npm', ['config', 'get', 'cafile'], { allowFailure: true });
  const candidates = [stdout.trim(), process.env.NODE_EXTRA_CA_CERTS];
  return candidates.find((file) => file && file !== 'null' && file !== 'undefined' && existsSync(file)) ?? null;
}

export function detectEngine() {
  const name = process.env.CONTAINER_ENGINE || (commandExists('podman') ? 'podman' : 'docker');
  if (!['podman', 'docker'].includes(name)) throw new StackError(`CONTAINER_ENGINE=${name}: podman or docker`);
  if (!commandExists(name)) throw new StackError(`${name} is not installed (docs/operations.md: running the containers)`);
  const podman = name === 'podman';
  const env = {
    ...process.env,
    // podman keeps HEALTHCHECK only in Docker's image format.
    ...(podman ? { BUILDAH_FORMAT: 'docker', CONTAINERS_CONF: process.env.CONTAINERS_CONF || PODMAN_CONF } : {}),
  };
  const exec = (args, options = {}) => run(name, args, { env, ...options });
  return {
    name,
    podman,
    env,
    exec,
    /** `podman-compose -p P -f F` or `docker compose -p P -f F`: podman-compose 1.0.3 ignores the file's `name:`. */
    compose(project, file, args, options = {}) {
      const [command, prefix] = podman ? ['podman-compose', []] : ['docker', ['compose']];
      if (podman && !commandExists('podman-compose')) throw new StackError('podman-compose is not installed');
      return run(command, [...prefix, '-p', project, '-f', file, ...args], { env, ...options });
    },
    /** The container compose made for `service` of `project`. */
    containerName: (project, service) => (podman ? `${project}_${service}_1` : `${project}-${service}-1`),
    async imageExists(tag) {
      return (await exec(['image', 'inspect', tag], { allowFailure: true })).code === 0;
    },
    async imageSize(tag) {
      const { stdout } = await exec(['image', 'inspect', '--format', '{{.Size}}', tag]);
      return Number(stdout.trim());
    },
    /** Builds `target` of `file` (or its last stage) from `context` as `tag`. */
    async build({ file, context, tag, target, buildArgs = {}, secrets = {}, inherit = true }) {
      const args = ['build', '-f', file, '-t', tag];
      if (podman) args.push('--format', 'docker', '--layers');
      if (target) args.push('--target', target);
      for (const [key, value] of Object.entries(buildArgs)) args.push('--build-arg', `${key}=${value}`);
      for (const [id, src] of Object.entries(secrets)) args.push('--secret', `id=${id},src=${src}`);
      await exec([...args, context], { inherit });
    },
  };
}
