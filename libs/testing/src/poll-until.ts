/** Re-evaluates `probe` until it returns a value accepted by `done`, or fails after `timeoutMs`. */
export async function pollUntil<T>(
  probe: () => Promise<T> | T,
  done: (value: T) => boolean,
  { timeoutMs = 10_000, intervalMs = 100, what = 'condition' } = {},
): Promise<T> {
  const deadline = Date.now() + timeoutMs;
  let last: T | undefined;
  let lastError: unknown;
  while (Date.now() < deadline) {
    try {
      last = await probe();
      if (done(last)) return last;
    } catch (error) {
      lastError = error;
    }
    await new Promise((r) => setTimeout(r, intervalMs));
  }
  throw new Error(`Timed out after ${timeoutMs} ms waiting for ${what}; last value: ${JSON.stringify(last)}${lastError ? `; last error: ${String(lastError)}` : ''}`);
}

/** Retries an assertion block until it stops throwing. */
export async function expectEventually(assertion: () => Promise<void> | void, { timeoutMs = 10_000, intervalMs = 100 } = {}): Promise<void> {
  const deadline = Date.now() + timeoutMs;
  for (;;) {
    try {
      await assertion();
      return;
    } catch (error) {
      if (Date.now() > deadline) throw error;
      await new Promise((r) => setTimeout(r, intervalMs));
    }
  }
}
