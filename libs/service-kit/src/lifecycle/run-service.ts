import { INestApplicationContext } from '@nestjs/common';
import { ConfigError, loadConfig } from '../config/load-config';
import { AdminCommandError } from './admin-cli';
import { ServiceConfig } from '../config/service.config';
import { flushTraces } from '../tracing/trace-flush';
import { drain } from './drain';

type Command<C> = (config: C, args: string[]) => Promise<INestApplicationContext | void>;

export interface ServiceCommands<C> {
  serve: Command<C>;
  [name: string]: Command<C>;
}

/**
 * Entry point of every app: validates configuration first (a bad variable stops the process with
 * a message naming it), then runs `serve` (default) or an operator command such as `migrate`.
 * A served app stops taking work on SIGTERM/SIGINT, drains, and exits 0 within the timeout:
 * first its HTTP connections (while databases and queues are still open for the requests in
 * flight), then Nest's shutdown hooks, and last the spans still buffered go to the collector.
 */
export async function runService<C extends ServiceConfig>(configClass: new () => C, commands: ServiceCommands<C>): Promise<void> {
  const [name = 'serve', ...args] = process.argv.slice(2);
  let config: C;
  try {
    config = loadConfig(configClass);
  } catch (error) {
    if (error instanceof ConfigError) {
      process.stderr.write(`${error.message}\n`);
      process.exit(1);
    }
    throw error;
  }
  const command = commands[name];
  if (!command) {
    process.stderr.write(`Unknown command "${name}". Commands: ${Object.keys(commands).join(', ')}\n`);
    process.exit(2);
  }
  try {
    const app = await command(config, args);
    if (name !== 'serve') {
      await app?.close();
      await flushTraces();
      process.exit(0);
    }
    if (app) installShutdown(app, config.SHUTDOWN_TIMEOUT_MS);
  } catch (error) {
    // An operator's mistake or a refusal to go ahead needs no stack trace.
    if (error instanceof AdminCommandError) {
      process.stderr.write(`${error.message}\n`);
      process.exit(1);
    }
    process.stderr.write(`${name} failed: ${error instanceof Error ? (error.stack ?? error.message) : String(error)}\n`);
    process.exit(1);
  }
}

function installShutdown(app: INestApplicationContext, timeoutMs: number) {
  let closing = false;
  const shutdown = (signal: string) => {
    if (closing) return;
    closing = true;
    const timer = setTimeout(() => {
      process.stderr.write(`shutdown after ${signal} exceeded ${timeoutMs} ms; exiting\n`);
      process.exit(1);
    }, timeoutMs);
    timer.unref();
    drain(app)
      .then(() => app.close())
      .then(flushTraces)
      .then(() => process.exit(0))
      .catch((error) => {
        process.stderr.write(`shutdown failed: ${String(error)}\n`);
        process.exit(1);
      });
  };
  process.on('SIGTERM', () => shutdown('SIGTERM'));
  process.on('SIGINT', () => shutdown('SIGINT'));
}
