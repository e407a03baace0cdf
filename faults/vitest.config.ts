import { fileURLToPath } from 'node:url';
import { defineConfig } from 'vitest/config';
import workspace from '../vitest.config.ts';

/**
 * The fault scenarios: the workspace's transform and aliases, none of its test setup; only the
 * stack of faults/run.mjs, named by FAULTS_CONTROL_URL. Scenarios kill parts of that one stack,
 * so files run one after another.
 */
export default defineConfig({
  plugins: workspace.plugins,
  resolve: workspace.resolve,
  root: fileURLToPath(new URL('..', import.meta.url)),
  test: {
    include: ['faults/src/**/*.fault.ts'],
    testTimeout: 15 * 60_000,
    hookTimeout: 120_000,
    pool: 'forks',
    fileParallelism: false,
    maxWorkers: 1,
  },
});
