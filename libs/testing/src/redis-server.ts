import { Redis } from 'ioredis';
import { spawn, type ChildProcess } from 'node:child_process';
import { createServer, type AddressInfo } from 'node:net';
import { pollUntil } from './poll-until';

export interface RedisServer {
  url: string;
  /** Kills the server (SIGKILL) and starts an empty one on the same port, as a Redis without persistence comes back. */
  restartEmpty(): Promise<void>;
  stop(): Promise<void>;
}

/**
 * A `redis-server` of the test's own on a free port, without persistence: for tests that kill
 * or empty Redis, which must never happen to the shared one.
 */
export async function startRedisServer(): Promise<RedisServer> {
  const port = await freePort();
  const url = `redis://127.0.0.1:${port}`;
  let child = await launch(port, url);
  return {
    url,
    async restartEmpty() {
      await kill(child);
      child = await launch(port, url);
    },
    stop: () => kill(child),
  };
}

async function launch(port: number, url: string): Promise<ChildProcess> {
  const child = spawn('redis-server', ['--port', String(port), '--bind', '127.0.0.1', '--save', '', '--appendonly', 'no'], { stdio: 'ignore' });
  await pollUntil(() => ping(url), (pong) => pong, { timeoutMs: 10_000, intervalMs: 50, what: `redis-server on port ${port}` });
  return child;
}

async function ping(url: string): Promise<boolean> {
  const client = new Redis(url, { lazyConnect: true, maxRetriesPerRequest: 0, retryStrategy: () => null });
  // Refused while the server starts: connect() rejects with it too.
  client.on('error', () => undefined);
  try {
    await client.connect();
    return (await client.ping()) === 'PONG';
  } catch {
    return false;
  } finally {
    client.disconnect();
  }
}

async function kill(child: ChildProcess): Promise<void> {
  if (child.exitCode !== null || child.signalCode !== null) return;
  const exited = new Promise((resolve) => child.once('exit', resolve));
  child.kill('SIGKILL');
  await exited;
}

async function freePort(): Promise<number> {
  const server = createServer();
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const { port } = server.address() as AddressInfo;
  await new Promise((resolve) => server.close(resolve));
  return port;
}
