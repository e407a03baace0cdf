// The platform's library code itself, for benchmarks that time a step in-process without a
// service around it: the named exports bundled with esbuild from their TypeScript sources.
import { build } from 'esbuild';
import { mkdirSync, mkdtempSync, rmSync } from 'node:fs';
import path from 'node:path';
import { pathToFileURL } from 'node:url';
import { root } from './bench-app.mjs';

/** `exports` maps an export name to its file under libs/, e.g. `{ ApertiumEngine: 'translation-engines/src/apertium/apertium.engine.ts' }`. */
export async function importLibs(exports) {
  // Inside the repository, so the bundle's npm imports resolve to its node_modules.
  mkdirSync(path.join(root, 'node_modules/.cache'), { recursive: true });
  const dir = mkdtempSync(path.join(root, 'node_modules/.cache/bench-libs-'));
  const bundle = path.join(dir, 'libs.mjs');
  try {
    await build({
      stdin: {
        contents: Object.entries(exports)
          .map(([name, file]) => `export { ${name} } from ${JSON.stringify(path.join(root, 'libs', file))};`)
          .join('\n'),
        resolveDir: root,
        loader: 'ts',
      },
      bundle: true,
      platform: 'node',
      format: 'esm',
      packages: 'external',
      tsconfig: path.join(root, 'tsconfig.base.json'),
      outfile: bundle,
      logLevel: 'error',
    });
    return await import(pathToFileURL(bundle).href);
  } finally {
    rmSync(dir, { recursive: true, force: true });
  }
}
