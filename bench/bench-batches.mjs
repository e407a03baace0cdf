// What the batch benchmarks share: translate-api, batch-worker and webhook-dispatcher built and
// started against a database and a Redis database of their own, an account with a translate key,
// and its webhook endpoint on a local receiver that checks every signature.
import { writeFileSync } from 'node:fs';
import path from 'node:path';
import { createBenchDatabase, leaseBenchRedis, rssMiB, runAdmin, startBenchApp } from './bench-app.mjs';
import { RESULTS_DIR } from './bench-report.mjs';
import { startBenchReceiver } from './bench-receiver.mjs';

const ACCOUNT = 'benchmark';

/**
 * `profile`: batch-worker runs with --cpu-prof (written to bench/results/profiles when it stops);
 * `workerEnv`: settings of batch-worker only.
 */
export async function startBatchStack({ profile = false, workerEnv = {} } = {}) {
  const database = await createBenchDatabase('bench_batches');
  const redis = await leaseBenchRedis();
  const env = {
    DATABASE_URL: database.url,
    REDIS_URL: redis.url,
    TRANSLATION_ENGINE: 'apertium',
    RATE_LIMIT_PER_MINUTE: '1000000',
    WEBHOOK_ALLOWED_HOSTS: '127.0.0.1',
  };
  const profileDir = profile ? path.join(RESULTS_DIR, 'profiles') : undefined;
  const started = [];
  const stopAll = async () => {
    await Promise.all(started.splice(0).map((app) => app.stop()));
    await receiver?.stop();
    await redis.release();
    await database.drop();
  };
  let receiver;
  // Interrupted, the benchmark still drops its database and frees its Redis database.
  for (const signal of ['SIGINT', 'SIGTERM']) process.once(signal, () => void stopAll().finally(() => process.exit(130)));
  try {
    const api = await startBenchApp('translate-api', { env });
    started.push(api);
    runAdmin('translate-api', env, 'account:create', ACCOUNT);
    runAdmin('translate-api', env, 'account:limits', ACCOUNT, '--words', 'none', '--rate', 'none');
    const key = runAdmin('translate-api', env, 'key:create', '--account', ACCOUNT);
    const manageKey = runAdmin('translate-api', env, 'key:create', '--account', ACCOUNT, '--manage');

    let secret;
    receiver = await startBenchReceiver(() => secret);
    const registered = await call(api.url, manageKey, 'PUT', '/api/v1/webhook', { url: `${receiver.url}/hooks` });
    secret = registered.webhook.secret;

    const startWorker = async () => {
      const worker = await startBenchApp('batch-worker', {
        env: { ...env, ...workerEnv },
        migrate: false,
        extraNodeArgs: profileDir ? ['--cpu-prof', `--cpu-prof-dir=${profileDir}`] : [],
      });
      started.push(worker);
      return worker;
    };
    const dispatcher = await startBenchApp('webhook-dispatcher', { env, migrate: false });
    started.push(dispatcher);
    const stack = { api, dispatcher, worker: await startWorker(), receiver, database, profileDir };

    /** Queues a batch of `texts`; returns its job id. */
    stack.submit = async (texts) => (await call(api.url, key, 'POST', '/api/v1/batches', { source: 'en', target: 'es', texts })).job;
    stack.read = (job) => call(api.url, key, 'GET', `/api/v1/batches/${job}`);
    /** The verified `batch.completed` delivery of `job`, once it arrives. */
    stack.announced = (job) => receiver.waitFor((delivery) => delivery.payload.data.job === job);
    /** Starts another batch-worker (after the last one was killed). */
    stack.startWorker = async () => (stack.worker = await startWorker());

    /**
     * One batch from submission to its verified webhook: seconds, and the peak RSS of each process
     * meanwhile (peaks are reset first, where Linux allows it).
     */
    stack.runBatch = async (texts) => {
      const apps = { worker: stack.worker, dispatcher, api };
      for (const app of Object.values(apps)) resetPeak(app.child.pid);
      const startedAt = performance.now();
      const job = await stack.submit(texts);
      const delivery = await stack.announced(job);
      const seconds = (delivery.at - startedAt) / 1000;
      const { status, results } = delivery.payload.data;
      if (status !== 'done' || results.length !== texts.length || !results.every((r) => r.translation)) {
        throw new Error(`batch ${job} ended ${status} with ${results.length} of ${texts.length} results`);
      }
      const peak = (app) => rssMiB(app.child.pid, 'VmHWM') ?? Number.NaN;
      return { job, seconds, workerPeakMiB: peak(apps.worker), dispatcherPeakMiB: peak(dispatcher), apiPeakMiB: peak(api) };
    };
    stack.stop = stopAll;
    return stack;
  } catch (error) {
    await stopAll();
    throw error;
  }
}

async function call(url, token, method, route, body) {
  const res = await fetch(`${url}${route}`, {
    method,
    headers: { authorization: `Bearer ${token}`, ...(body && { 'content-type': 'application/json' }) },
    body: body && JSON.stringify(body),
  });
  const answer = await res.json();
  if (!res.ok) throw new Error(`${method} ${route} answered ${res.status}: ${JSON.stringify(answer)}`);
  return answer;
}

/** Resets a process's peak RSS (VmHWM) to its current RSS; only for processes of the same user. */
function resetPeak(pid) {
  try {
    writeFileSync(`/proc/${pid}/clear_refs`, '5');
  } catch {
    // Not Linux, or not allowed: the peak then covers the process's whole life.
  }
}
