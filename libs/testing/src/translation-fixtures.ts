import { apiKeyHint, generateApiKey, hashApiKey } from '@platform/auth';
import type { AccountLimits, ApiKeyPrincipal } from '@platform/contracts';
import { randomBytes } from 'node:crypto';
import pg from 'pg';
import { testEnv } from './test-env';

export interface TestKeyOptions {
  /** Defaults to a sandbox (`svc_test_`) key. */
  sandbox?: boolean;
  scopes?: ('translate' | 'manage')[];
  monthlyWordLimit?: number | null;
  rateLimitPerMinute?: number | null;
  /** Adds the key to this account instead of a new one. */
  accountId?: string;
  /** Another database than the shared test database (tests that isolate their stack). */
  databaseUrl?: string;
}

export interface TestKey {
  keyId: string;
  accountId: string;
  /** The plain key to send as `Authorization: Bearer ...`. */
  plainKey: string;
  sandbox: boolean;
}

/**
 * Inserts an account (unless given) and an API key straight into the test database, stored the
 * way the auth lib stores keys, so tests of other features need no HTTP round trip to get one.
 */
export async function createTestKey(options: TestKeyOptions = {}): Promise<TestKey> {
  const sandbox = options.sandbox ?? true;
  const plainKey = generateApiKey(sandbox);
  const client = new pg.Client({ connectionString: options.databaseUrl ?? testEnv.databaseUrl });
  await client.connect();
  try {
    const accountId =
      options.accountId ??
      (await client.query<{ id: string }>('INSERT INTO translation.accounts (name) VALUES ($1) RETURNING id', [`test-${randomBytes(6).toString('hex')}`]))
        .rows[0].id;
    // Only activated accounts hold live keys, as the key service and the migration have it.
    if (!sandbox) await client.query('UPDATE translation.accounts SET activated_at = COALESCE(activated_at, now()) WHERE id = $1', [accountId]);
    const { rows } = await client.query<{ id: string }>(
      `INSERT INTO translation.api_keys (account_id, key_hash, key_hint, sandbox, scopes, monthly_word_limit, rate_limit_per_minute)
       VALUES ($1, $2, $3, $4, $5, $6, $7) RETURNING id`,
      [
        accountId,
        hashApiKey(plainKey),
        apiKeyHint(plainKey),
        sandbox,
        options.scopes ?? ['translate'],
        options.monthlyWordLimit ?? null,
        options.rateLimitPerMinute ?? null,
      ],
    );
    return { keyId: rows[0].id, accountId, plainKey, sandbox };
  } finally {
    await client.end();
  }
}

/**
 * The principal a test key stands for, for services called without HTTP. The limits are given
 * here, not read back: pass those the key was created with.
 */
export function testPrincipal(key: TestKey, limits: { monthlyWordLimit?: number | null; account?: Partial<AccountLimits> } = {}): ApiKeyPrincipal {
  return {
    keyId: key.keyId,
    accountId: key.accountId,
    sandbox: key.sandbox,
    scopes: ['translate'],
    monthlyWordLimit: limits.monthlyWordLimit ?? null,
    rateLimitPerMinute: null,
    account: { monthlyWordLimit: null, rateLimitPerMinute: null, ...limits.account },
  };
}
