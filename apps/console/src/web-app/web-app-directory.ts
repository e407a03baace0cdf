import path from 'node:path';
import { fileURLToPath } from 'node:url';

/**
 * The build puts the browser app in `web/` beside the service's bundle (dist/apps/console/, and
 * /app in the image); run from source, the workspace's build output is used.
 */
export function webAppDirectory(): string {
  const here = path.dirname(fileURLToPath(import.meta.url));
  return path.basename(here) === 'web-app' ? path.resolve(here, '../../../../dist/apps/console/web') : path.join(here, 'web');
}
