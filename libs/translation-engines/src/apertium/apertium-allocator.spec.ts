import { mkdtempSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { describe, expect, it } from 'vitest';
import { allocatorLibrary } from './apertium-allocator';

describe('allocatorLibrary', () => {
  const empty = mkdtempSync(path.join(tmpdir(), 'libs-'));
  const installed = mkdtempSync(path.join(tmpdir(), 'libs-'));
  writeFileSync(path.join(installed, 'libtcmalloc_minimal.so.4'), '');

  it('finds tcmalloc in the first library directory that has it', () => {
    expect(allocatorLibrary('tcmalloc', [empty, installed])).toBe(path.join(installed, 'libtcmalloc_minimal.so.4'));
  });

  it('preloads nothing for the system allocator, or when tcmalloc is not installed', () => {
    expect(allocatorLibrary('system', [installed])).toBeNull();
    expect(allocatorLibrary('tcmalloc', [empty])).toBeNull();
  });
});
