import type {} from 'fastify';

/** Key scopes: `translate` may call the translation endpoints; `manage` may also manage keys and webhooks. */
export type KeyScope = 'translate' | 'manage';

/**
 * One of an account's two worlds, as Stripe's test and live modes: glossaries, batch jobs, the
 * webhook endpoint and its events, usage and quotas belong to a mode, and a key sees only its own.
 */
export interface AccountMode {
  accountId: string;
  /** true: the sandbox (test) world of the account; false: live. */
  sandbox: boolean;
}

/** Ceilings an operator sets on an account (admin account:limits); null when none. */
export interface AccountLimits {
  monthlyWordLimit: number | null;
  rateLimitPerMinute: number | null;
}

/**
 * The authenticated API key of a translation request, set on the Fastify request as `apiKey`
 * by the auth guard and read by quota, rate limiting and every controller.
 */
export interface ApiKeyPrincipal extends AccountMode {
  keyId: string;
  scopes: KeyScope[];
  /** Explicit per-key monthly word limit; null when none is set. */
  monthlyWordLimit: number | null;
  /** Explicit per-key requests per minute; null means the configured default. */
  rateLimitPerMinute: number | null;
  /** The operator's ceilings of the key's account, which the key's own limits stay within. */
  account: AccountLimits;
  /**
   * Whether the account held a translation memory in the key's mode when the key was looked up:
   * false lets a translation skip the memory lookup. Unknown (absent) counts as true.
   */
  hasMemories?: boolean;
}

declare module 'fastify' {
  interface FastifyRequest {
    apiKey?: ApiKeyPrincipal;
  }
}
