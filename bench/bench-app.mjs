// What both benchmarks share: a free port, and one app built, migrated, given a credential by its
// own admin command, and started until /health answers.
import { execFileSync, spawn } from 'node:child_process';
import { once } from 'node:events';
import { createServer } from 'node:net';
import path from 'node:path';
import { fileURLToPath } from 'node:url';

export const root = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '..');

export async function freePort() {
  const server = createServer().listen(0, '127.0.0.1');
  await once(server, 'listening');
  const { port } = server.address();
  server.close();
  return port;
}

/** Starts `app` on a free port; `admin` are the admin command's arguments that print the credential last. */
export async function startBenchApp(app, { env, admin }) {
  const main = `dist/apps/${app}/main.js`;
  execFileSync(process.execPath, ['tools/build.mjs', app], { cwd: root, stdio: 'ignore' });
  const appEnv = { ...process.env, PORT: String(await freePort()), LOG_LEVEL: 'warn', ...env };
  execFileSync(process.execPath, [main, 'migrate'], { cwd: root, env: appEnv, stdio: 'ignore' });
  const secret = execFileSync(process.execPath, [main, 'admin', ...admin], { cwd: root, env: appEnv }).toString().trim().split('\n').at(-1);
  const child = spawn(process.execPath, [main], { cwd: root, env: appEnv, stdio: ['ignore', 'ignore', 'inherit'] });
  const url = `http://127.0.0.1:${appEnv.PORT}`;
  for (let i = 0; i < 100; i++) {
    const healthy = await fetch(`${url}/health`).then((r) => r.ok, () => false);
    if (healthy) return { child, url, secret };
    await new Promise((r) => setTimeout(r, 200));
  }
  child.kill();
  throw new Error(`${app} did not become healthy`);
}
