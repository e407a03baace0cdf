// A small disk of its own that a test can fill up: a tmpfs mounted on a directory (root only),
// whose size is shrunk to what it holds and restored again. Writes to a full one fail with the
// kernel's own ENOSPC, as on a real disk that filled up.
import { execFileSync } from 'node:child_process';
import { mkdirSync, statfsSync, writeFileSync } from 'node:fs';
import path from 'node:path';
import { isRoot, StackError } from './common.mjs';

const PAGE = 4096;

const mount = (...args) => execFileSync('mount', args, { stdio: 'pipe' });

/** Whether this process may mount one. */
export const canMountSmallDisk = () => isRoot();

/** Mounts a tmpfs of `bytes` on `dir` (created when missing). */
export function mountSmallDisk(dir, bytes) {
  if (!canMountSmallDisk()) throw new StackError(`mounting a small disk on ${dir} needs root`);
  mkdirSync(dir, { recursive: true });
  mount('-t', 'tmpfs', '-o', `size=${bytes},mode=0755`, 'tmpfs', dir);
  const resize = (size) => mount('-o', `remount,size=${size}`, 'tmpfs', dir);
  return {
    dir,
    /** Takes away every free byte: from now on writes fail with ENOSPC. */
    fill() {
      // tmpfs takes size=0 for "no limit": an empty disk first gets a page of its own to hold.
      if (used(dir) === 0) writeFileSync(path.join(dir, '.filler'), Buffer.alloc(PAGE));
      // Writes still under way may outgrow the size just read: the remount then refuses and is tried again.
      for (let attempt = 1; ; attempt++) {
        try {
          resize(used(dir));
          return;
        } catch (error) {
          if (attempt === 5) throw new StackError(`could not fill the disk on ${dir}: ${error.stderr ?? error.message}`);
        }
      }
    },
    /** Gives the space back. */
    free: () => resize(bytes),
    unmount: () => execFileSync('umount', ['--lazy', dir], { stdio: 'pipe' }),
  };
}

function used(dir) {
  const { blocks, bfree, bsize } = statfsSync(dir);
  return (blocks - bfree) * bsize;
}
