/**
 * The stack under test, from the environment. `npm run e2e` sets everything for the native stack
 * it starts; any other stack (e.g. the compose one) is named the same way.
 */
const env = process.env;

const number = (name: string, fallback: number) => {
  const value = Number(env[name] || fallback);
  if (!Number.isFinite(value) || value <= 0) throw new Error(`${name}="${env[name]}" must be a positive number of milliseconds`);
  return value;
};

const required = (name: string, why = 'the end-to-end suite needs the base URLs of a running stack (npm run e2e sets them)') => {
  const value = env[name];
  if (!value) throw new Error(`${name} is not set: ${why}`);
  return value.replace(/\/$/, '');
};

export const stack = {
  translateUrl: required('E2E_TRANSLATE_URL'),
  imageUrl: required('E2E_IMAGE_URL'),
  consoleUrl: required('E2E_CONSOLE_URL'),
  /** Health endpoints of the workers, checked when given. */
  workerUrls: {
    'batch-worker': env.E2E_BATCH_WORKER_URL,
    'webhook-dispatcher': env.E2E_WEBHOOK_DISPATCHER_URL,
    'image-worker': env.E2E_IMAGE_WORKER_URL,
  },
  /** Shell command prefixes that run the admin CLI of each API against the stack's database. */
  translateAdmin: env.E2E_TRANSLATE_ADMIN || 'node tools/admin.mjs',
  imageAdmin: env.E2E_IMAGE_ADMIN || 'node tools/admin.mjs',
  consoleAdmin: env.E2E_CONSOLE_ADMIN || 'node tools/admin.mjs',
  /**
   * Prometheus scraping the stack with the platform's rules, their `for` on the run's time scale
   * (`npm run e2e` starts one); undefined only when E2E_PROMETHEUS=off leaves it out on purpose.
   */
  prometheusUrl:
    env.E2E_PROMETHEUS === 'off' ? undefined : required('E2E_PROMETHEUS_URL', 'the suite checks what Prometheus sees of the stack (npm run e2e starts one); E2E_PROMETHEUS=off skips those tests'),
  /** The stack's control interface, through which tests stop and start its services. */
  controlUrl: env.E2E_STACK_CONTROL_URL,
  /** Debian's Chromium (the registry serves no browser builds); Playwright drives it. */
  chromiumPath: env.CHROMIUM_PATH || '/usr/bin/chromium',
  /** Screenshots of every console page, kept by CI as artifacts. */
  screenshotDir: env.CONSOLE_SCREENSHOT_DIR || 'artifacts/console-screenshots',
  /** How the stack reaches the webhook receiver running here; its WEBHOOK_ALLOWED_HOSTS must allow it. */
  webhookHost: env.E2E_WEBHOOK_HOST || '127.0.0.1',
  /** Batches, sandbox reviews and webhook deliveries: a stack with slower settings needs more. */
  jobTimeoutMs: number('E2E_JOB_TIMEOUT_MS', 30_000),
  /** The second image format, made by image-worker. */
  variantTimeoutMs: number('E2E_VARIANT_TIMEOUT_MS', 10_000),
};
