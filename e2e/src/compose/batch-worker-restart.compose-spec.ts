import { pollUntil, runCommand } from '@platform/testing';
import { fileURLToPath } from 'node:url';
import { describe, expect, inject, it } from 'vitest';
import { runAdmin } from '../admin.command';
import { stack } from '../stack.config';
import { expectAcceptedJob, translationApi } from '../translation.client';

/** Set by `npm run e2e:compose`: the engine and the batch-worker container of its stack. */
const engine = process.env.E2E_COMPOSE_ENGINE!;
const container = process.env.E2E_COMPOSE_BATCH_WORKER!;
const root = fileURLToPath(new URL('../../../', import.meta.url));
const TEXTS = 1000;

async function inspect(format: string): Promise<string> {
  const run = await runCommand(engine, ['inspect', '--format', format, container], { cwd: root, env: process.env });
  expect(run.code, run.stderr).toBe(0);
  return run.stdout.trim();
}

describe('compose: restart policies', () => {
  it('restarts a killed batch-worker, and its batch still completes, every text translated once', { timeout: 240_000 }, async () => {
    const account = `${inject('credentials').runId}-restart`;
    await runAdmin(stack.translateAdmin, ['account:create', account]);
    const key = await runAdmin(stack.translateAdmin, ['key:create', '--account', account, '--sandbox']);
    const texts = Array.from({ length: TEXTS }, (_, i) => `Text ${i}: the cat is sleeping on the red sofa.`);
    const job = expectAcceptedJob(await translationApi('POST', '/batches', key, { json: { source: 'en', target: 'es', texts } }));
    const read = () => translationApi('GET', `/batches/${job}`, key);
    await pollUntil(read, (res) => res.body.progress?.done > 0, { timeoutMs: 60_000, intervalMs: 50, what: 'a first chunk' });

    // The worker dies as in a crash or at the OOM killer's hand: its process is killed. (`podman
    // kill` and `docker kill` count as stopped by the user, which no restart policy undoes.)
    const [pid, startedAt] = (await inspect('{{.State.Pid}} {{.State.StartedAt}}')).split(/ (.*)/);
    process.kill(Number(pid), 'SIGKILL');
    const killed = (await read()).body;
    expect(killed.status).toBe('processing');
    expect(killed.progress.done).toBeLessThan(TEXTS);

    // The restart policy (unless-stopped) starts it again, and it answers /health.
    await pollUntil(() => inspect('{{.State.Running}} {{.State.StartedAt}}'), (state) => state.startsWith('true') && !state.endsWith(startedAt), {
      timeoutMs: 60_000,
      intervalMs: 500,
      what: 'batch-worker to be restarted',
    });
    await pollUntil(
      () => fetch(`${stack.workerUrls['batch-worker']}/health`).then((res) => res.status, () => 0),
      (status) => status === 200,
      { timeoutMs: 60_000, intervalMs: 500, what: "the restarted batch-worker's /health" },
    );

    // Its lock runs out and the restarted worker takes the batch up where it stopped.
    const done = await pollUntil(read, (res) => res.body.status !== 'processing', { timeoutMs: 150_000, intervalMs: 500, what: `job ${job} to finish` });
    expect(done.body).toMatchObject({ status: 'done', progress: { done: TEXTS, total: TEXTS } });
    done.body.results.forEach((result: { index: number; translation: string }, i: number) => {
      expect(result.index).toBe(i);
      expect(result.translation).toMatch(new RegExp(`\\b${i}\\b`));
    });
  });
});
