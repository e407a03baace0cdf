import { loadConfig } from '@platform/service-kit';
import { describeApiClientContract } from '@platform/testing';
import { fileURLToPath } from 'node:url';
import { ConsoleConfig } from '../config/console.config';
import { serveConsole } from '../console.app';

const apiDir = (file: string) => fileURLToPath(new URL(`../../web/src/api/${file}`, import.meta.url));

// The browser app's types come from the document the session API serves, so a changed route
// breaks the app's typecheck instead of a customer's page.
describeApiClientContract({
  service: 'console',
  start: (env) => serveConsole(loadConfig(ConsoleConfig, env)),
  files: { document: apiDir('session-api.json'), types: apiDir('session-api.ts'), generate: 'npx nx run console:api-types' },
});
