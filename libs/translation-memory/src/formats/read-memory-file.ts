import type { MemoryFile, MemoryFileFormat, ReadOptions } from './memory-file';
import { readPo } from './po-reader';
import { readTmx } from './tmx-reader';
import { readXliff } from './xliff-reader';

const READERS: Record<MemoryFileFormat, (bytes: Uint8Array, options: ReadOptions) => Promise<MemoryFile>> = { tmx: readTmx, xliff: readXliff, po: readPo };

/** A memory file's units, or 422 naming the line or element that is wrong. */
export function readMemoryFile(format: MemoryFileFormat, bytes: Uint8Array, options: ReadOptions): Promise<MemoryFile> {
  return READERS[format](bytes, options);
}
