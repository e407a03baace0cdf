// The control interface of a stack that a test suite runs and disrupts on purpose: JSON over
// HTTP on loopback. The fault suite's stack (faults/stack/controller.mjs) serves one with many
// levers; `npm run e2e`'s stack (start.mjs with STACK_CONTROL_PORT) one that stops and starts
// services. Clients: libs/testing's stackControl.
import { createServer } from 'node:http';

function readJson(request) {
  return new Promise((resolve, reject) => {
    let body = '';
    request.on('data', (chunk) => (body += chunk));
    request.on('end', () => {
      try {
        resolve(body ? JSON.parse(body) : {});
      } catch (error) {
        reject(error);
      }
    });
  });
}

/**
 * Serves `routes`, each `[method, pattern, handle(match, body, url)]` with `pattern` matched
 * against the path: what `handle` resolves to is the 200 answer's JSON, what it throws a 500
 * with `{ error }`; an unknown route is a 404. Resolves to the interface's URL once it listens
 * on 127.0.0.1:`port`; it serves until the process exits.
 */
export async function serveControl(routes, port) {
  const server = createServer(async (request, response) => {
    const url = new URL(request.url, 'http://control');
    try {
      for (const [method, pattern, handle] of routes) {
        const match = request.method === method && pattern.exec(url.pathname);
        if (!match) continue;
        const result = await handle(match, await readJson(request), url);
        response.writeHead(200, { 'content-type': 'application/json' }).end(JSON.stringify(result));
        return;
      }
      response.writeHead(404, { 'content-type': 'application/json' }).end(JSON.stringify({ error: `no route ${request.method} ${url.pathname}` }));
    } catch (error) {
      response.writeHead(500, { 'content-type': 'application/json' }).end(JSON.stringify({ error: error.message }));
    }
  });
  await new Promise((resolve, reject) => {
    server.once('error', reject);
    server.listen(port, '127.0.0.1', resolve);
  });
  return `http://127.0.0.1:${server.address().port}`;
}

/**
 * The routes both stacks serve for their services: `POST /services/<app>/signal` sends a signal
 * (`{ signal }`, SIGKILL by default) and resolves once the process has exited, after which the
 * service stays down; `POST /services/<app>/start` starts it again and resolves to `{ url }` once
 * its /health answers 200 (`{ wait: false }`: once it listens, for a service whose dependencies
 * are down on purpose). `signal(app, signal)` and `start(app, { wait })` are the stack's own.
 */
export function serviceRoutes({ signal, start }) {
  return [
    ['POST', /^\/services\/([a-z-]+)\/signal$/, ([, app], body) => signal(app, body.signal ?? 'SIGKILL')],
    ['POST', /^\/services\/([a-z-]+)\/start$/, ([, app], body) => start(app, { wait: body.wait !== false })],
  ];
}
