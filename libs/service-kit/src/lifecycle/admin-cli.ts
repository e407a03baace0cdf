import { DynamicModule, INestApplicationContext } from '@nestjs/common';
import { NestFactory } from '@nestjs/core';
import { ApiError } from '@platform/errors';

/** A mistake of the operator: printed without a stack, exit code 1. */
export class AdminCommandError extends Error {}

export interface AdminCommand<Options> {
  usage: string;
  /** Runs before any connection is opened, so bad flags fail fast and without side effects. */
  parse(args: string[]): Options;
  /** Returns the lines to print; the last one is the created secret or id, alone. */
  run(context: INestApplicationContext, options: Options): Promise<string[]>;
}

export type AdminCommands = Record<string, AdminCommand<unknown>>;

/** What a service refuses a customer (a limit above the ceiling, the key cap) is an operator mistake at the terminal. */
export async function asOperatorMistake<T>(work: Promise<T>): Promise<T> {
  try {
    return await work;
  } catch (error) {
    if (error instanceof ApiError && error.getStatus() < 500) throw new AdminCommandError(error.message);
    throw error;
  }
}

/** Node's own messages for unknown or malformed flags (from `parseArgs`), followed by the usage line. */
export function parseFlags<T>(usage: string, parse: () => T): T {
  try {
    return parse();
  } catch (error) {
    throw new AdminCommandError(`${error instanceof Error ? error.message : String(error)}\nusage: ${usage}`);
  }
}

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
export async function runAdminCommand(commands: AdminCommands, module: DynamicModule, [name = '', ...args]: string[]): Promise<void> {
  const command = Object.hasOwn(commands, name) ? commands[name] : undefined;
  if (!command) exitWithError(`unknown admin command "${name}"\nusage:\n${Object.values(commands).map((c) => `  ${c.usage}`).join('\n')}`);
  const options = await attempt(() => command.parse(args));
  if ('mistake' in options) exitWithError(options.mistake);

  // Errors only, and Nest writes those to stderr: stdout carries nothing but the result.
  const context = await NestFactory.createApplicationContext(module, { logger: ['error', 'fatal'], abortOnError: false });
  const result = await attempt(() => command.run(context, options.value)).finally(() => context.close());
  if ('mistake' in result) exitWithError(result.mistake);
  process.stdout.write(`${result.value.join('\n')}\n`);
}
