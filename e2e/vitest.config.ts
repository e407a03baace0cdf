import { fileURLToPath } from 'node:url';
import { defineConfig } from 'vitest/config';
import workspace from '../vitest.config.ts';
import { stack } from './src/stack.config.ts';

/**
 * The end-to-end suite: the workspace's transform and aliases, none of its test setup (no test
 * database, no S3 server of its own); only a running stack, named by E2E_* variables.
 */
export default defineConfig({
  plugins: workspace.plugins,
  resolve: workspace.resolve,
  root: fileURLToPath(new URL('..', import.meta.url)),
  test: {
    // What the containers themselves do (they kill services) is tested against the compose
    // stack only, after the suite: `npm run e2e:compose` sets E2E_COMPOSE_TESTS for that run.
    include: process.env.E2E_COMPOSE_TESTS ? ['e2e/src/compose/*.compose-spec.ts'] : ['e2e/src/**/*.e2e-spec.ts'],
    globalSetup: ['e2e/src/credentials.global-setup.ts'],
    testTimeout: stack.jobTimeoutMs + 30_000,
    hookTimeout: 120_000,
    pool: 'forks',
    maxWorkers: 2,
  },
});
