import { fileURLToPath } from 'node:url';
import swc from 'unplugin-swc';
import { defineConfig } from 'vitest/config';

const libs = ['auth', 'quota', 'errors', 'contracts', 'database', 'service-kit', 'queue', 'storage', 'testing', 'glossaries', 'translation-engines', 'translation-pipeline', 'outbox', 'batches', 'webhooks', 'review', 'image-tokens', 'image-conversion', 'api-client'];

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
    alias: Object.fromEntries(libs.map((l) => [`@platform/${l}`, fileURLToPath(new URL(`./libs/${l}/src/index.ts`, import.meta.url))])),
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
