// A customer's webhook endpoint for the benchmarks: it checks every request's Standard Webhooks
// signature with the `standardwebhooks` package, as a customer would, and counts what it got.
import { createServer } from 'node:http';
import { Webhook } from 'standardwebhooks';

/**
 * Listens on a free loopback port; `secretFor(path)` names the secret each request must be signed
 * with. Answers 204 to a valid request and 401 to any other (which the dispatcher never retries).
 */
export async function startBenchReceiver(secretFor) {
  const verifiers = new Map();
  const verified = [];
  let refused = 0;
  const waiters = new Set();
  const server = createServer((req, res) => {
    const chunks = [];
    req.on('data', (chunk) => chunks.push(chunk));
    req.on('end', () => {
      const body = Buffer.concat(chunks).toString('utf8');
      const secret = secretFor(req.url);
      if (secret && !verifiers.has(secret)) verifiers.set(secret, new Webhook(secret));
      try {
        const payload = verifiers.get(secret).verify(body, req.headers);
        verified.push({ at: performance.now(), id: req.headers['webhook-id'], payload });
      } catch (error) {
        refused += 1;
        res.writeHead(401).end();
        for (const waiter of waiters) waiter(error);
        return;
      }
      res.writeHead(204).end();
      for (const waiter of waiters) waiter();
    });
  });
  await new Promise((resolve) => server.listen(0, '127.0.0.1', resolve));
  server.keepAliveTimeout = 30_000;
  return {
    url: `http://127.0.0.1:${server.address().port}`,
    verified,
    get refused() {
      return refused;
    },
    /** Resolves with the first verified delivery `match` accepts, once it arrives; rejects on a bad signature. */
    waitFor(match) {
      const found = verified.find(match);
      if (found) return Promise.resolve(found);
      return new Promise((resolve, reject) => {
        const waiter = (refusal) => {
          const hit = !refusal && verified.findLast(match);
          if (!hit && !refusal) return;
          waiters.delete(waiter);
          if (hit) resolve(hit);
          else reject(new Error(`the receiver refused a delivery: ${refusal.message}`));
        };
        waiters.add(waiter);
      });
    },
    stop: () => {
      const closed = new Promise((resolve) => server.close(resolve));
      server.closeAllConnections();
      return closed;
    },
  };
}
