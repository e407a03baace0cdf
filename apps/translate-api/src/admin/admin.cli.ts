import { NestFactory } from '@nestjs/core';
import { TranslateApiConfig } from '../config/translate-api.config';
import { ADMIN_COMMANDS, AdminCommandError } from './admin.commands';
import { AdminModule } from './admin.module';

function usage(): string {
  return `usage:\n${Object.values(ADMIN_COMMANDS)
    .map((c) => `  ${c.usage}`)
    .join('\n')}`;
}

/** Operator mistakes end the process with their message alone (no stack) and exit code 1. */
function exitWithError(message: string): never {
  process.stderr.write(`${message}\n`);
  process.exit(1);
}

/** Lets operator mistakes through as values and anything unexpected through as an exception. */
async function attempt<T>(work: () => T | Promise<T>): Promise<{ value: T } | { mistake: string }> {
  try {
    return { value: await work() };
  } catch (error) {
    if (error instanceof AdminCommandError) return { mistake: error.message };
    throw error;
  }
}

/**
 * `main.js admin <command> ...`: bootstrapping tasks for operators, run in a Nest application
 * context without HTTP. Human-readable lines go first; the created secret or id is alone on the
 * last line of stdout so that scripts can take it with `tail -n 1`.
 */
export async function runAdmin(config: TranslateApiConfig, [name = '', ...args]: string[]): Promise<void> {
  const command = Object.hasOwn(ADMIN_COMMANDS, name) ? ADMIN_COMMANDS[name] : undefined;
  if (!command) exitWithError(`unknown admin command "${name}"\n${usage()}`);
  const options = await attempt(() => command.parse(args));
  if ('mistake' in options) exitWithError(options.mistake);

  // Errors only, and Nest writes those to stderr: stdout carries nothing but the result.
  const context = await NestFactory.createApplicationContext(AdminModule.forRoot(config), { logger: ['error', 'fatal'], abortOnError: false });
  const result = await attempt(() => command.run(context, options.value)).finally(() => context.close());
  if ('mistake' in result) exitWithError(result.mistake);
  process.stdout.write(`${result.value.join('\n')}\n`);
}
