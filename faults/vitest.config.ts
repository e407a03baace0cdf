import { fileURLToPath } from 'node:url';
import { defineConfig } from 'vitest/config';
import workspace from '../vitest.config.ts';

/**
 * Scenarios that only load the stack and wait, and may share the time: the soak and the
 * receiver that stays down for two minutes (its dispatcher's failed attempts log no errors).
 */
const ALONGSIDE = ['faults/src/soak.fault.ts', 'faults/src/webhook-receiver-down.fault.ts'];

/**
 * The fault scenarios: the workspace's transform and aliases, none of its test setup; only the
 * stack of faults/run.mjs, named by FAULTS_CONTROL_URL. Scenarios that kill or stop parts of
 * that one stack run one after another, once the two that share the time are done.
 */
export default defineConfig({
  plugins: workspace.plugins,
  resolve: workspace.resolve,
  root: fileURLToPath(new URL('..', import.meta.url)),
  test: {
    testTimeout: 15 * 60_000,
    hookTimeout: 120_000,
    pool: 'forks',
    maxWorkers: 2,
    projects: [
      { extends: true, test: { name: 'alongside', include: ALONGSIDE, sequence: { groupOrder: 0 } } },
      { extends: true, test: { name: 'one at a time', include: ['faults/src/**/*.fault.ts'], exclude: ALONGSIDE, fileParallelism: false, sequence: { groupOrder: 1 } } },
    ],
  },
});
