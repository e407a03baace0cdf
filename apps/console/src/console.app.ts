import { consoleEnvelope } from '@platform/errors';
import { bootstrapHttpApp } from '@platform/service-kit';
import { AppModule } from './app.module';
import { ConsoleConfig } from './config/console.config';
import { SESSION_COOKIE } from './sessions/session-cookie';
import { serveWebApp } from './web-app/web-app';
import { webAppDirectory } from './web-app/web-app-directory';

export function serveConsole(config: ConsoleConfig) {
  return bootstrapHttpApp({
    service: 'console',
    module: AppModule.forRoot(config),
    config,
    envelope: consoleEnvelope,
    bodyLimit: 64 * 1024,
    openapi: {
      title: 'Console session API',
      description: 'What the console in the browser reads and changes for the signed-in user: session, users, keys and the work of the account. State-changing calls need the X-CSRF-Token header.',
      securitySchemes: { [SESSION_COOKIE]: { type: 'apiKey', in: 'cookie', name: SESSION_COOKIE, description: 'HttpOnly session cookie set by sign-in' } },
    },
    // Session and account data are never cached; failed sign-ins are also throttled per address.
    credentials: {},
    configure: (app) => serveWebApp(app.getHttpAdapter().getInstance(), config.CONSOLE_WEB_DIR || webAppDirectory()),
  });
}
