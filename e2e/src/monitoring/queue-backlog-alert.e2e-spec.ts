import { stackControl } from '@platform/testing';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { stack } from '../stack.config';
import { expectAcceptedJob, finishedJob, translationApi } from '../translation.client';
import { alertTestKey } from './alert-account';
import { ALERT_TIMEOUT_MS, alertBecomes, alertNow, phases, withoutPrometheus } from './prometheus.client';

const ALERT = 'QueueBacklogGrowing';
/** One over the rule's 100 waiting jobs. */
const BATCHES = 101;
/** Submissions under way at once. */
const PARALLEL = 8;

/**
 * The batches' jobs wait in the outbox while batch-worker, which relays them to their queue, is
 * stopped: the rule sees them there. This file stops a service of the one stack, so it runs
 * alone, after every other file (e2e/vitest.config.ts).
 */
describe.skipIf(withoutPrometheus)(`${ALERT} while batch-worker is stopped`, () => {
  let control: ReturnType<typeof stackControl>;
  let key: string;
  let stopped = false;

  beforeAll(async () => {
    if (!stack.controlUrl) throw new Error('E2E_STACK_CONTROL_URL is not set: this test stops batch-worker through the control interface of the stack npm run e2e starts');
    control = stackControl(stack.controlUrl);
    // More submissions in a few seconds than a key's default minute allows.
    key = await alertTestKey('backlog-alert', '--rate', '1000');
  });
  afterAll(async () => {
    if (stopped) await control.start('batch-worker');
  });

  it('fires while batches pile up with no batch-worker running, and resolves once it runs again', { timeout: 4 * ALERT_TIMEOUT_MS }, async () => {
    expect(await alertNow(ALERT), `${ALERT} is active before this test`).toBeUndefined();
    const took = phases();

    await control.signal('batch-worker', 'SIGTERM');
    stopped = true;
    took('batch-worker stopped');
    const jobs: string[] = [];
    for (let i = 0; i < BATCHES; i += PARALLEL) {
      const submitted = await Promise.all(
        Array.from({ length: Math.min(PARALLEL, BATCHES - i) }, async () =>
          expectAcceptedJob(await translationApi('POST', '/batches', key, { json: { source: 'en', target: 'es', texts: ['Good morning.'] } })),
        ),
      );
      jobs.push(...submitted);
    }
    took(`${BATCHES} batches submitted`);

    const firing = await alertBecomes(ALERT, 'firing');
    took('firing');
    expect(firing).toMatchObject({ labels: { queue: 'translation-batches', severity: 'warning' }, annotations: { summary: `The translation-batches queue grows: ${BATCHES} jobs wait` } });

    await control.start('batch-worker');
    stopped = false;
    took('batch-worker healthy');
    await alertBecomes(ALERT, undefined);
    took('resolved');
    // The worker takes the backlog in order of submission.
    await finishedJob(key, jobs[0]);
    console.log(`[${ALERT}] ${took('first batch done')}`);
  });
});
