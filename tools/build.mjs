#!/usr/bin/env node
// Bundles one app into dist/apps/<app>/: app.js (the app), tracing.js (the OpenTelemetry SDK) and
// main.js, the entry point that loads the SDK first when traces are asked for, then the app
// (libs/service-kit/src/tracing/launch-service.ts). Workspace libs are inlined, npm packages stay
// external (installed next to the bundles), and TypeScript goes through SWC for decorator metadata.
import { context, build } from 'esbuild';
import { transformFile } from '@swc/core';
import { spawn } from 'node:child_process';
import { mkdirSync, renameSync, writeFileSync } from 'node:fs';
import { fileURLToPath } from 'node:url';
import path from 'node:path';
import { swcOptions } from './swc-options.mjs';

const root = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '..');
const [app, mode] = process.argv.slice(2);
// Taken before Vite runs: it sets NODE_ENV=production in this process, which must not reach the service.
const serviceEnv = { ...process.env };
if (!app) {
  console.error('usage: build.mjs <app> [--watch]');
  process.exit(2);
}

const swcPlugin = {
  name: 'swc',
  setup(b) {
    b.onLoad({ filter: /\.ts$/ }, async (args) => {
      const { code } = await transformFile(args.path, { ...swcOptions, filename: args.path });
      return { contents: code, loader: 'js' };
    });
  },
};

const outdir = path.join(root, 'dist/apps', app);
const outfile = path.join(outdir, 'main.js');
const tracing = path.join(root, 'libs/service-kit/src/tracing');
const options = {
  // Three bundles that share nothing: main.js must load neither the SDK nor the app's packages
  // before it has decided whether to start the SDK.
  entryPoints: {
    main: path.join(tracing, 'launch-service.ts'),
    tracing: path.join(tracing, 'start-tracing.ts'),
    app: path.join(root, 'apps', app, 'src/main.ts'),
  },
  outdir,
  define: { PLATFORM_SERVICE: JSON.stringify(app) },
  bundle: true,
  platform: 'node',
  format: 'esm',
  target: 'node20',
  packages: 'external',
  sourcemap: true,
  tsconfig: path.join(root, 'tsconfig.base.json'),
  logLevel: 'warning',
  plugins: [swcPlugin],
};

/** The console also serves a browser app: Vite builds it into web/ beside the service's bundle. */
async function buildBrowserApp(watch) {
  if (app !== 'console') return;
  // Always the production build of React and the rest, whatever NODE_ENV the stack runs with
  // (npm start and the e2e stack say development): it is what every browser is sent, and what the
  // first page's weight is checked on. Vite takes NODE_ENV over its mode; the service keeps its own.
  process.env.NODE_ENV = 'production';
  const { build: vite } = await import('vite');
  await vite({ configFile: path.join(root, 'apps/console/web/vite.config.ts'), logLevel: 'warn', build: watch ? { watch: {} } : {} });
  if (!watch) console.log('built dist/apps/console/web');
}

if (mode !== '--watch') {
  await buildBrowserApp(false);
  // Tests build the same app from parallel processes while others already run it: each file is
  // written under a name of its own and renamed into place, so nobody starts a half-written bundle.
  const { outputFiles } = await build({ ...options, write: false });
  mkdirSync(path.dirname(outfile), { recursive: true });
  for (const file of outputFiles) {
    const partial = `${file.path}.${process.pid}.partial`;
    writeFileSync(partial, file.contents);
    renameSync(partial, file.path);
  }
  console.log(`built ${path.relative(root, outdir)}`);
} else {
  // Development loop for `nx serve`: rebuild on change and restart the process.
  let child;
  const restart = () => {
    if (child) child.kill('SIGTERM');
    child = spawn(process.execPath, ['--enable-source-maps', outfile], { stdio: 'inherit', env: serviceEnv });
  };
  const ctx = await context({
    ...options,
    plugins: [...options.plugins, { name: 'restart', setup: (b) => b.onEnd((r) => r.errors.length || restart()) }],
  });
  await ctx.watch();
  await buildBrowserApp(true);
  const stop = () => {
    child?.kill('SIGTERM');
    ctx.dispose().then(() => process.exit(0));
  };
  process.on('SIGINT', stop);
  process.on('SIGTERM', stop);
}
