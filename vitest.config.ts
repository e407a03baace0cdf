import { fileURLToPath } from 'node:url';
import swc from 'unplugin-swc';
import { defineConfig } from 'vitest/config';

const libs = ['auth', 'quota', 'errors', 'contracts', 'database', 'service-kit', 'queue', 'storage', 'testing', 'glossaries', 'style-profiles', 'translation-memory', 'translation-engines', 'translation-pipeline', 'outbox', 'batches', 'webhooks', 'review', 'image-tokens', 'image-conversion', 'api-client'];

/** Entry points besides a lib's index: the parts that are bundled for the browser too, and test fixtures apps' tests share. */
const entryPoints = {
  'translation-pipeline/text-spans': 'translation-pipeline/src/text-spans.ts',
  'review/edit-check': 'review/src/review-edit-check.ts',
  'auth/vat-number': 'auth/src/accounts/vat-number.ts',
  'review/testing': 'review/src/review-fixtures.testing.ts',
  'translation-memory/memory-key': 'translation-memory/src/memory-key.ts',
  'translation-memory/reviewed-segments': 'translation-memory/src/reviewed-segments.ts',
};
const at = (file: string) => fileURLToPath(new URL(`./libs/${file}`, import.meta.url));

export default defineConfig({
  plugins: [
    // Vite's own transform drops decorator metadata, which Nest's DI and class-validator need.
    swc.vite({
      jsc: {
        parser: { syntax: 'typescript', decorators: true },
        transform: { legacyDecorator: true, decoratorMetadata: true, useDefineForClassFields: false },
        target: 'es2022',
        keepClassNames: true,
      },
    }),
  ],
  resolve: {
    // Listed first: `@platform/review` would otherwise also take `@platform/review/edit-check`.
    alias: [
      ...Object.entries(entryPoints).map(([entry, file]) => ({ find: `@platform/${entry}`, replacement: at(file) })),
      ...libs.map((l) => ({ find: `@platform/${l}`, replacement: at(`${l}/src/index.ts`) })),
    ],
  },
  test: {
    include: ['**/*.spec.ts'],
    exclude: ['**/node_modules/**', 'dist/**'],
    globalSetup: ['./libs/testing/src/global-setup.ts'],
    testTimeout: 30_000,
    hookTimeout: 60_000,
    // Two cores: files run in parallel processes, each against real Postgres, Redis and S3.
    pool: 'forks',
    maxWorkers: 2,
  },
});
