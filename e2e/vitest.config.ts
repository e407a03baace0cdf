import { fileURLToPath } from 'node:url';
import { defineConfig } from 'vitest/config';
import workspace from '../vitest.config.ts';
import { stack } from './src/stack.config.ts';

const CREDENTIALS = ['e2e/src/credentials.global-setup.ts'];
/** Files that stop a service of the one stack: alone, once every other file is done. */
const STOPPING_SERVICES = ['e2e/src/monitoring/queue-backlog-alert.e2e-spec.ts'];

/**
 * The end-to-end suite: the workspace's transform and aliases, none of its test setup (no test
 * database, no S3 server of its own); only a running stack, named by E2E_* variables.
 */
export default defineConfig({
  plugins: workspace.plugins,
  resolve: workspace.resolve,
  root: fileURLToPath(new URL('..', import.meta.url)),
  test: {
    // A browser test walks several pages, each checked with axe at two widths, while the other
    // file's browser and the whole stack share the two cores: a minute is not always enough.
    testTimeout: stack.jobTimeoutMs + 90_000,
    // A page reloaded or re-rendered on a busy two-core machine takes more than vitest's default second to show.
    expect: { poll: { timeout: 10_000 } },
    hookTimeout: 120_000,
    pool: 'forks',
    maxWorkers: 2,
    // What the containers themselves do (they kill services) is tested against the compose
    // stack only, after the suite: `npm run e2e:compose` sets E2E_COMPOSE_TESTS for that run.
    projects: process.env.E2E_COMPOSE_TESTS
      ? [{ extends: true, test: { name: 'compose', include: ['e2e/src/compose/*.compose-spec.ts'], globalSetup: CREDENTIALS } }]
      : [
          { extends: true, test: { name: 'suite', include: ['e2e/src/**/*.e2e-spec.ts'], exclude: STOPPING_SERVICES, globalSetup: CREDENTIALS, sequence: { groupOrder: 0 } } },
          { extends: true, test: { name: 'stopping services', include: STOPPING_SERVICES, sequence: { groupOrder: 1 } } },
        ],
  },
});
