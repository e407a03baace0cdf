import { randomBytes } from 'node:crypto';
import type { TestProject } from 'vitest/node';
import { runAdmin } from './admin.command';
import { stack } from './stack.config';

/** Secrets minted once per run through the stack's admin CLI; each test file gets its own. */
export interface Credentials {
  /** Accounts are new on every run, so runs against a long-lived stack never meet old data. */
  runId: string;
  translateKey: string;
  glossaryKey: string;
  /** Sandbox, scope `manage`. */
  manageKey: string;
  /** Sandbox, scope `manage`, in an account of its own for its webhook endpoint. */
  webhookKey: string;
  /** Live: only live jobs' review tasks go to people. */
  liveKey: string;
  /** Live, for the localisation corpus: more words than a sandbox month holds. */
  corpusKey: string;
  /** Reviews Spanish. */
  reviewerToken: string;
  imageToken: string;
  /** Monthly limit of one conversion. */
  limitedImageToken: string;
}

declare module 'vitest' {
  export interface ProvidedContext {
    credentials: Credentials;
  }
}

/** One command after another per API: the native admin CLI rebuilds the app before each run. */
async function sequentially<T extends Record<string, string[]>>(prefix: string, commands: T): Promise<Record<keyof T, string>> {
  const secrets = {} as Record<keyof T, string>;
  for (const [name, args] of Object.entries(commands)) secrets[name as keyof T] = await runAdmin(prefix, args);
  return secrets;
}

export default async function setup(project: TestProject): Promise<void> {
  const runId = `e2e-${Date.now().toString(36)}-${randomBytes(3).toString('hex')}`;
  const key = (account: string, ...flags: string[]) => ['key:create', '--account', `${runId}-${account}`, ...flags];
  // Only account:create makes accounts; key:create refuses an unknown one.
  const accounts = Object.fromEntries(['translate', 'glossaries', 'keys', 'webhooks', 'review', 'corpus'].map((name) => [name, ['account:create', `${runId}-${name}`]]));
  const [translation, image] = await Promise.all([
    sequentially(stack.translateAdmin, accounts).then(() =>
      sequentially(stack.translateAdmin, {
        translateKey: key('translate', '--sandbox'),
        glossaryKey: key('glossaries', '--sandbox'),
        manageKey: key('keys', '--sandbox', '--manage'),
        webhookKey: key('webhooks', '--sandbox', '--manage'),
        liveKey: key('review'),
        // Whole files, and their batches polled: more requests than a customer's default minute.
        corpusKey: key('corpus', '--rate', '1000'),
        reviewerToken: ['reviewer:create', '--languages', 'es', '--account', `${runId}-review`, '--name', runId],
      }),
    ),
    sequentially(stack.imageAdmin, {
      imageToken: ['token:create', '--plan', 'free'],
      limitedImageToken: ['token:create', '--plan', 'free', '--limit', '1'],
    }),
  ]);
  project.provide('credentials', { runId, ...translation, ...image });
}
