import { cpSync, existsSync, mkdirSync, mkdtempSync, rmSync, statSync, symlinkSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { readBuildContext } from './build-context.filter';
import type { Dockerfile, Instruction } from './dockerfile.parser';

/** A target's files as its image holds them, laid out on this machine. */
export interface ImageLayout {
  /** The directory that stands for the image's `/`. */
  root: string;
  /** The image's WORKDIR on this machine. */
  workdir: string;
  /** An absolute path of the image (e.g. in a HEALTHCHECK) on this machine. */
  local(imagePath: string): string;
  /** Deletes the laid-out files (linked directories stay untouched). */
  remove(): void;
}

const scratchDir = () => mkdtempSync(path.join(os.tmpdir(), 'image-layout-'));

/**
 * Builds the file system of `target` from the COPY instructions of its stages, without Docker:
 * files from the build context come from `contextDir` (as .dockerignore lets them through);
 * files from a stage that installs or builds come from the same paths of this workspace, which
 * holds the same install and build (`npm ci`, tools/build.mjs); stages `FROM scratch` are laid
 * out the same way first. What the base image brings (node, Debian packages) is this machine's.
 */
export function layOutImage(dockerfile: Dockerfile, target: string, contextDir: string): ImageLayout {
  const inContext = readBuildContext(contextDir);

  /** Where the file at `imagePath` of stage `name` is on this machine. */
  const locate = (name: string, imagePath: string): string => {
    const chain = dockerfile.chain(name);
    if (chain[0].base === 'scratch') return path.join(build(name), imagePath);
    const workdir = lastWorkdir(chain.flatMap((stage) => stage.instructions));
    const relative = path.posix.relative(workdir, imagePath);
    if (relative.startsWith('..')) throw new Error(`${imagePath} of stage ${name} lies outside its WORKDIR ${workdir}, which stands for this workspace`);
    return path.join(contextDir, relative);
  };

  const copy = (instruction: Instruction, workdir: string, root: string) => {
    const parts = instruction.args.split(/\s+/);
    const destination = path.posix.resolve(workdir, parts.at(-1)!);
    const sources = parts.slice(0, -1).map((source) => {
      if (instruction.flags.from) return locate(instruction.flags.from, path.posix.resolve('/', source));
      if (!inContext(source)) throw new Error(`COPY ${source}: .dockerignore keeps it out of the build context`);
      return path.join(contextDir, source);
    });
    const intoDirectory = parts.at(-1)!.endsWith('/') || sources.length > 1;
    for (const source of sources) {
      if (!existsSync(source)) throw new Error(`COPY ${instruction.args}: ${source} does not exist`);
      const directory = statSync(source).isDirectory();
      const to = path.join(root, destination, directory || !intoDirectory ? '' : path.basename(source)).replace(/\/$/, '');
      mkdirSync(path.dirname(to), { recursive: true });
      // Hundreds of megabytes no later instruction writes into: linked, not copied.
      if (directory && path.basename(source) === 'node_modules' && !existsSync(to)) symlinkSync(source, to);
      else cpSync(source, to, { recursive: true, verbatimSymlinks: true });
    }
  };

  const builds = new Map<string, string>();
  const build = (name: string): string => {
    if (builds.has(name)) return builds.get(name)!;
    const root = scratchDir();
    builds.set(name, root);
    let workdir = '/';
    for (const instruction of dockerfile.chain(name).flatMap((stage) => stage.instructions)) {
      if (instruction.keyword === 'WORKDIR') workdir = path.posix.resolve(workdir, instruction.args);
      if (instruction.keyword === 'COPY' && !outsideWorkdir(instruction, workdir)) copy(instruction, workdir, root);
      if (instruction.keyword === 'ADD') throw new Error('ADD is not laid out; the Dockerfile uses COPY only');
    }
    return root;
  };

  const remove = () => builds.forEach((dir) => rmSync(dir, { recursive: true, force: true }));
  let root: string;
  try {
    root = build(target);
  } catch (error) {
    remove();
    throw error;
  }
  const local = (imagePath: string) => path.join(root, imagePath);
  return { root, workdir: local(lastWorkdir(dockerfile.all(target, 'WORKDIR'))), local, remove };
}

/**
 * A COPY for the system rather than the app (the Apertium list apt installs from): like the
 * Debian packages it is for, it is part of what this machine brings.
 */
function outsideWorkdir(instruction: Instruction, workdir: string): boolean {
  const destination = path.posix.resolve(workdir, instruction.args.split(/\s+/).at(-1)!);
  return path.posix.relative(workdir, destination).startsWith('..');
}

function lastWorkdir(instructions: Instruction[]): string {
  return instructions.filter((i) => i.keyword === 'WORKDIR').reduce((dir, i) => path.posix.resolve(dir, i.args), '/');
}
