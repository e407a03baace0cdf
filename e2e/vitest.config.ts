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
    // Tests of what the containers themselves do run against the compose stack only.
    include: ['e2e/src/**/*.e2e-spec.ts', ...(process.env.E2E_COMPOSE_ENGINE ? ['e2e/src/compose/*.compose-spec.ts'] : [])],
    globalSetup: ['e2e/src/credentials.global-setup.ts'],
    testTimeout: stack.jobTimeoutMs + 30_000,
    hookTimeout: 120_000,
    pool: 'forks',
    maxWorkers: 2,
  },
});
