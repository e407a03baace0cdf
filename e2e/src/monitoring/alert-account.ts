import { runAdmin } from '../admin.command';
import { stack } from '../stack.config';

/**
 * A sandbox key of an account of its own, made by the stack's admin CLI: the alert tests run
 * apart from the suite's shared credentials, some of them after every other file.
 */
export async function alertTestKey(name: string, ...flags: string[]): Promise<string> {
  const account = `e2e-${name}-${Date.now().toString(36)}-${Math.random().toString(36).slice(2, 6)}`;
  await runAdmin(stack.translateAdmin, ['account:create', account]);
  return runAdmin(stack.translateAdmin, ['key:create', '--account', account, '--sandbox', ...flags]);
}
