import { existsSync } from 'node:fs';
import path from 'node:path';

export const APERTIUM_ALLOCATORS = ['tcmalloc', 'system'] as const;
export type ApertiumAllocator = (typeof APERTIUM_ALLOCATORS)[number];

/** Debian's libtcmalloc-minimal4. */
const TCMALLOC = 'libtcmalloc_minimal.so.4';

/** Where Debian's multiarch layout (and other distributions) put shared libraries. */
const MULTIARCH: Partial<Record<NodeJS.Architecture, string>> = { x64: 'x86_64-linux-gnu', arm64: 'aarch64-linux-gnu' };
const libraryDirs = () => [MULTIARCH[process.arch] && `/usr/lib/${MULTIARCH[process.arch]}`, '/usr/lib64', '/usr/lib'].filter((dir): dir is string => !!dir);

/**
 * The library to preload into every stage for `allocator`, or null for the C library's own.
 * Apertium's programs allocate and free a small string or state object per character of
 * analysis, lookup and transfer: with tcmalloc the same pipeline takes a sixth less CPU per text
 * and its output is byte for byte the same (docs/performance.md). Null when it is not installed.
 */
export function allocatorLibrary(allocator: ApertiumAllocator, dirs: string[] = libraryDirs()): string | null {
  if (allocator === 'system') return null;
  return dirs.map((dir) => path.join(dir, TCMALLOC)).find((file) => existsSync(file)) ?? null;
}
