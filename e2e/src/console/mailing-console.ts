import { freePort, startBuiltApp, type BuiltApp, type SmtpStandIn } from '@platform/testing';

export interface MailingConsole {
  url: string;
  app: BuiltApp;
}

/**
 * A console of a suite's own, its mail going to a stand-in here: the stack's console sends none.
 * It runs the stack's build on the stack's database and Redis, which the native stack
 * (`npm run e2e`) names in the environment; against a stack that does not, such as the compose
 * one, there is nothing to run it on.
 */
export async function startMailingConsole(smtp: SmtpStandIn, env: Record<string, string> = {}): Promise<MailingConsole> {
  const port = await freePort();
  const url = `http://127.0.0.1:${port}`;
  const app = startBuiltApp('console', {
    ...process.env,
    NODE_ENV: 'development',
    HOST: '127.0.0.1',
    PORT: String(port),
    LOG_LEVEL: 'info',
    CONSOLE_PUBLIC_URL: url,
    SMTP_URL: `smtp://127.0.0.1:${smtp.port}`,
    CONSOLE_MAIL_FROM: 'Example Console <console@example.eu>',
    ...env,
  });
  await app.listening;
  return { url, app };
}

export async function stopMailingConsole({ app }: MailingConsole): Promise<void> {
  app.child.kill('SIGTERM');
  await app.exit;
}

/** Whether the environment names the stack's database, which a console of a suite's own needs. */
export const canStartMailingConsole = Boolean(process.env.DATABASE_URL);
