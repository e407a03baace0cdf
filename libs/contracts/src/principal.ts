import type {} from 'fastify';

/** Key scopes: `translate` may call the translation endpoints; `manage` may also manage keys and webhooks. */
export type KeyScope = 'translate' | 'manage';

/**
 * The authenticated API key of a translation request, set on the Fastify request as `apiKey`
 * by the auth guard and read by quota, rate limiting and every controller.
 */
export interface ApiKeyPrincipal {
  keyId: string;
  accountId: string;
  sandbox: boolean;
  scopes: KeyScope[];
  /** Explicit per-key monthly word limit; null when none is set. */
  monthlyWordLimit: number | null;
  /** Explicit per-key requests per minute; null means the configured default. */
  rateLimitPerMinute: number | null;
}

declare module 'fastify' {
  interface FastifyRequest {
    apiKey?: ApiKeyPrincipal;
  }
}
