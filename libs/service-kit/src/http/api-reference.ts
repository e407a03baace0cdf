import type { FastifyInstance } from 'fastify';
import { readFileSync } from 'node:fs';
import { createRequire } from 'node:module';
import path from 'node:path';

/**
 * The API reference page at /docs: Swagger UI rendering /openapi.json, with every file served from
 * the swagger-ui-dist package next to the app (node_modules beside the bundle, or the
 * workspace's), so the page works offline and behind the same CSP as any other origin-local page.
 *
 * Only the fixed file names below are routed: nothing under /docs maps a request path onto the
 * file system, and no route here reads credentials or answers for any other path.
 */
export const API_REFERENCE_PATH = '/docs';

/** Swagger UI's own configuration, as a file: the page's CSP allows no inline script. */
const INITIALIZER = `window.addEventListener('load', function () {
  window.ui = SwaggerUIBundle({
    url: '/openapi.json',
    dom_id: '#swagger-ui',
    deepLinking: true,
    // The default sends the document to an online validator; the page must not leave this origin.
    validatorUrl: null,
    presets: [SwaggerUIBundle.presets.apis],
  });
});
`;

/** Nothing but this origin's own files; inline styles because Swagger UI's components set some. */
const CONTENT_SECURITY_POLICY = [
  "default-src 'none'",
  "script-src 'self'",
  "style-src 'self' 'unsafe-inline'",
  "img-src 'self' data:",
  "connect-src 'self'",
  "font-src 'self'",
  "base-uri 'none'",
  "form-action 'none'",
  "frame-ancestors 'none'",
].join('; ');

const ASSETS: Record<string, { type: string; file?: string; text?: string }> = {
  'swagger-ui.css': { type: 'text/css; charset=utf-8', file: 'swagger-ui.css' },
  'swagger-ui-bundle.js': { type: 'text/javascript; charset=utf-8', file: 'swagger-ui-bundle.js' },
  'swagger-initializer.js': { type: 'text/javascript; charset=utf-8', text: INITIALIZER },
};

function page(title: string): string {
  const escaped = title.replace(/[&<>"]/g, (c) => `&#${c.charCodeAt(0)};`);
  return `<!DOCTYPE html>
<html lang="en">
  <head>
    <meta charset="utf-8">
    <meta name="viewport" content="width=device-width, initial-scale=1">
    <title>${escaped}: API reference</title>
    <link rel="stylesheet" href="${API_REFERENCE_PATH}/swagger-ui.css">
  </head>
  <body>
    <div id="swagger-ui"></div>
    <script src="${API_REFERENCE_PATH}/swagger-ui-bundle.js"></script>
    <script src="${API_REFERENCE_PATH}/swagger-initializer.js"></script>
  </body>
</html>
`;
}

/** Where the package is installed, resolved from this module as Node resolves `import`s. */
function swaggerUiDirectory(): string {
  return path.dirname(createRequire(import.meta.url).resolve('swagger-ui-dist/package.json'));
}

export function serveApiReference(fastify: FastifyInstance, title: string): void {
  const directory = swaggerUiDirectory();
  // Read once, on first use: the bundle is large and most processes never serve it.
  const cache = new Map<string, string | Buffer>();
  const load = (name: string) => {
    const asset = ASSETS[name];
    if (!cache.has(name)) cache.set(name, asset.text ?? readFileSync(path.join(directory, asset.file!)));
    return cache.get(name)!;
  };
  const html = page(title);

  fastify.get(API_REFERENCE_PATH, async (_request, reply) => {
    reply.header('content-security-policy', CONTENT_SECURITY_POLICY).header('cache-control', 'no-cache').type('text/html; charset=utf-8');
    return html;
  });
  for (const [name, asset] of Object.entries(ASSETS)) {
    fastify.get(`${API_REFERENCE_PATH}/${name}`, async (_request, reply) => {
      reply.header('cache-control', 'public, max-age=3600').type(asset.type);
      return load(name);
    });
  }
}
