import react from '@vitejs/plugin-react';
import { fileURLToPath } from 'node:url';
import { defineConfig, type Plugin } from 'vite';

const root = fileURLToPath(new URL('.', import.meta.url));
const lib = (file: string) => fileURLToPath(new URL(`../../../libs/${file}`, import.meta.url));

/**
 * Fails the build when the browser app reaches server code: a lib's main entry point (only the
 * browser entry points below are aliased, and the alias runs first) or a package that needs
 * Node. Bundled anyway, such code would only break in the browser, after weighing megabytes.
 */
const serverCodeStaysOut: Plugin = {
  name: 'server-code-stays-out',
  enforce: 'pre',
  resolveId(source, importer) {
    if (/^@platform\/|^@nestjs\/|^(typeorm|ioredis|pg|class-validator)$|^node:/.test(source)) {
      this.error(`${importer ?? 'the app'} imports ${source}, which is server code; the browser app may import the libs' browser entry points only`);
    }
    return null;
  },
};

/**
 * The console's browser app. Served by the console app under /console/, with every asset's name
 * carrying a content hash so it can be cached for a year; only index.html is revalidated.
 */
export default defineConfig({
  root,
  base: '/console/',
  plugins: [serverCodeStaysOut, react()],
  resolve: {
    // The entry points of the libs written for the browser too (no Node): the same checks as the server.
    alias: {
      '@platform/review/edit-check': lib('review/src/review-edit-check.ts'),
      '@platform/auth/vat-number': lib('auth/src/accounts/vat-number.ts'),
      '@platform/translation-pipeline/text-spans': lib('translation-pipeline/src/text-spans.ts'),
      '@platform/translation-memory/reviewed-segments': lib('translation-memory/src/reviewed-segments.ts'),
    },
  },
  build: {
    outDir: fileURLToPath(new URL('../../../dist/apps/console/web', import.meta.url)),
    emptyOutDir: true,
    assetsDir: 'assets',
    sourcemap: true,
    // The session API's CSP allows no inline script or style.
    assetsInlineLimit: 0,
  },
  server: {
    port: 5173,
    // `vite` by hand during development: the session API of `npm start` or `nx serve console`.
    proxy: { '/console/api': process.env.CONSOLE_URL ?? 'http://127.0.0.1:3500' },
  },
});
