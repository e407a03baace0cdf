import react from '@vitejs/plugin-react';
import { fileURLToPath } from 'node:url';
import { defineConfig } from 'vite';

const root = fileURLToPath(new URL('.', import.meta.url));
const lib = (file: string) => fileURLToPath(new URL(`../../../libs/${file}`, import.meta.url));

/**
 * The console's browser app. Served by the console app under /console/, with every asset's name
 * carrying a content hash so it can be cached for a year; only index.html is revalidated.
 */
export default defineConfig({
  root,
  base: '/console/',
  plugins: [react()],
  resolve: {
    // The entry points of the libs written for the browser too (no Node): the same checks as the server.
    alias: {
      '@platform/review/edit-check': lib('review/src/review-edit-check.ts'),
      '@platform/translation-pipeline/text-spans': lib('translation-pipeline/src/text-spans.ts'),
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
