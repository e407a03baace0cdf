import { Inject, Injectable } from '@nestjs/common';
import { InjectRepository } from '@nestjs/typeorm';
import { TranslationErrorCode, type ApiKeyPrincipal, type KeyScope } from '@platform/contracts';
import { LastUseRecorder, PreparedStatement } from '@platform/database';
import { ApiError } from '@platform/errors';
import { isUUID } from 'class-validator';
import { EntityManager, FindOptionsWhere, IsNull, Repository } from 'typeorm';
import { Account } from '../accounts/account.entity';
import { assertSignupComplete } from '../accounts/account.service';
import { bigintAsNumber } from '../bigint-column';
import { ApiKey } from './api-key.entity';
import { apiKeyHint, generateApiKey, hashApiKey, isWellFormedApiKey } from './api-key-secret.util';

export interface NewApiKey {
  sandbox: boolean;
  name?: string | null;
  scopes?: KeyScope[];
  monthlyWordLimit?: number | null;
  rateLimitPerMinute?: number | null;
}

/** `undefined` leaves a limit as it is; `null` removes it. */
export interface ApiKeyLimits {
  monthlyWordLimit?: number | null;
  rateLimitPerMinute?: number | null;
}

/** A key together with its plain secret, which exists only in this value and is never stored. */
export interface IssuedApiKey {
  key: ApiKey;
  secret: string;
}

/**
 * Whose keys a management call may touch. A sandbox caller sees only its account's sandbox keys,
 * so that a sandbox key can neither reach nor mint production secrets.
 */
export interface KeyOwner {
  accountId: string;
  sandboxOnly: boolean;
}

export function keyOwnerOf(principal: ApiKeyPrincipal): KeyOwner {
  return { accountId: principal.accountId, sandboxOnly: principal.sandbox };
}

export const AUTH_OPTIONS = Symbol('AUTH_OPTIONS');

export interface AuthOptions {
  /** Keys an account may hold that are not revoked, sandbox and live together. */
  maxKeysPerAccount: number;
}

export const KEY_SCOPES: readonly KeyScope[] = ['translate', 'manage'];

/** How long a regenerated key's previous secret is still accepted, as a client chooses it (Stripe's key rolling). */
export const PREVIOUS_SECRET_WINDOWS = { none: 0, '1h': 3_600, '24h': 86_400, '7d': 604_800 } as const;
export type PreviousSecretWindow = keyof typeof PREVIOUS_SECRET_WINDOWS;


/** `manage` includes everything `translate` may do, so every key carries `translate`. */
function normalizeScopes(scopes: KeyScope[] = []): KeyScope[] {
  return scopes.includes('manage') ? ['translate', 'manage'] : ['translate'];
}

/**
 * What a request's key may do, in one statement: the key that is not revoked, of an account
 * cleared to hold keys (see assertMayHold), its account's ceilings, and whether the account has
 * a translation memory in the key's mode (through the memories' account index; requests of
 * accounts without one skip the memory lookup). A rolled key's previous secret counts until its
 * window ends.
 */
const AUTHENTICATE = new PreparedStatement<PrincipalRow>(
  'authenticate-api-key',
  `SELECT k.id, k.account_id, k.sandbox, k.scopes, k.monthly_word_limit, k.rate_limit_per_minute,
    a.monthly_word_limit AS account_monthly_word_limit, a.rate_limit_per_minute AS account_rate_limit_per_minute,
    EXISTS (SELECT 1 FROM translation.memories m WHERE m.account_id = k.account_id AND m.sandbox = k.sandbox) AS has_memories
  FROM translation.api_keys k JOIN translation.accounts a ON a.id = k.account_id
  WHERE (k.key_hash = $1 OR (k.previous_key_hash = $1 AND k.previous_key_expires_at > now()))
    AND k.revoked_at IS NULL AND a.signup_approved_at IS NOT NULL`,
);

interface PrincipalRow {
  id: string;
  account_id: string;
  sandbox: boolean;
  scopes: KeyScope[];
  monthly_word_limit: string | null;
  rate_limit_per_minute: number | null;
  account_monthly_word_limit: string | null;
  account_rate_limit_per_minute: number | null;
  has_memories: boolean;
}

function principalOf(row: PrincipalRow): ApiKeyPrincipal {
  const number = bigintAsNumber.from as (value: string | null) => number | null;
  return {
    keyId: row.id,
    accountId: row.account_id,
    sandbox: row.sandbox,
    scopes: row.scopes,
    monthlyWordLimit: number(row.monthly_word_limit),
    rateLimitPerMinute: row.rate_limit_per_minute,
    account: { monthlyWordLimit: number(row.account_monthly_word_limit), rateLimitPerMinute: row.account_rate_limit_per_minute },
    hasMemories: row.has_memories,
  };
}

export const NOT_ACTIVATED_MESSAGE =
  'This account is not activated for production use, so it can hold sandbox keys only; request production access in the console, and an operator activates the account';

/**
 * A signed-up account holds no key at all until its sign-up is complete, and live keys are for
 * activated accounts only: 403 `forbidden` otherwise, wherever the key is asked for.
 */
function assertMayHold(account: Account, spec: NewApiKey): void {
  assertSignupComplete(account);
  if (!spec.sandbox && !account.activatedAt) throw new ApiError(403, TranslationErrorCode.Forbidden, NOT_ACTIVATED_MESSAGE);
}

/**
 * A customer's key limits stay within the operator's ceilings of the account: 422 naming the
 * ceiling otherwise. No limit of its own (null) is fine: the key is then held to the ceiling.
 */
function assertWithinCeilings(account: Account, limits: ApiKeyLimits): void {
  const checks = [
    ['monthly_word_limit', limits.monthlyWordLimit, account.monthlyWordLimit, 'words a month'],
    ['rate_limit_per_minute', limits.rateLimitPerMinute, account.rateLimitPerMinute, 'requests per minute'],
  ] as const;
  for (const [field, wanted, ceiling, unit] of checks) {
    if (typeof wanted === 'number' && ceiling !== null && wanted > ceiling) {
      throw ApiError.invalidParameter(
        `${field}: ${wanted} is above the account's ceiling of ${ceiling} ${unit}, set by the operator; a key's limit can be at most the ceiling`,
      );
    }
  }
}

@Injectable()
export class ApiKeyService {
  private readonly lastUse: LastUseRecorder;

  constructor(
    @InjectRepository(ApiKey) private readonly keys: Repository<ApiKey>,
    @Inject(AUTH_OPTIONS) private readonly options: AuthOptions,
  ) {
    this.lastUse = new LastUseRecorder(keys.manager.connection, 'translation.api_keys');
  }

  /**
   * Runs on every request: a malformed key is refused without touching the database, a
   * well-formed one costs a single lookup on the unique hash index, joined to its account. A key
   * of an account whose sign-up is not complete is refused like an unknown one.
   */
  async authenticate(plainKey: string): Promise<ApiKeyPrincipal | null> {
    if (!isWellFormedApiKey(plainKey)) return null;
    const [row] = await AUTHENTICATE.rows(this.keys.manager.connection, [hashApiKey(plainKey)]);
    return row ? principalOf(row) : null;
  }

  /** Records that the key was used (`last_used_at`), off the request's path. */
  noteUse(keyId: string): void {
    this.lastUse.note(keyId);
  }

  /**
   * Refused with 422 when the account already holds `maxKeysPerAccount` keys that are not revoked,
   * or when a limit is above the account's ceiling; with 403 for any key of an account whose
   * sign-up is not complete and for a live key of an account that is not activated. The account
   * row is locked meanwhile, so concurrent creations cannot pass the cap together.
   */
  async create(accountId: string, spec: NewApiKey): Promise<IssuedApiKey> {
    const secret = generateApiKey(spec.sandbox);
    const limits = { monthlyWordLimit: spec.monthlyWordLimit ?? null, rateLimitPerMinute: spec.rateLimitPerMinute ?? null };
    const key = await this.keys.manager.transaction(async (manager) => {
      const account = await lockAccount(manager, accountId);
      assertMayHold(account, spec);
      assertWithinCeilings(account, { monthlyWordLimit: spec.monthlyWordLimit, rateLimitPerMinute: spec.rateLimitPerMinute });
      const held = await manager.countBy(ApiKey, { accountId, revokedAt: IsNull() });
      if (held >= this.options.maxKeysPerAccount) {
        throw ApiError.invalidParameter(
          `An account holds at most ${this.options.maxKeysPerAccount} keys that are not revoked (sandbox and live together); revoke one before creating another`,
        );
      }
      return manager.save(
        manager.create(ApiKey, {
          accountId,
          name: spec.name ?? null,
          keyHash: hashApiKey(secret),
          keyHint: apiKeyHint(secret),
          sandbox: spec.sandbox,
          scopes: normalizeScopes(spec.scopes),
          ...limits,
        }),
      );
    });
    return { key, secret };
  }

  list(owner: KeyOwner): Promise<ApiKey[]> {
    return this.keys.find({ where: this.ownedBy(owner), order: { createdAt: 'ASC', id: 'ASC' } });
  }

  /** Throws 404 for unknown ids, ids of other accounts and ids that are not UUIDs alike. */
  async get(owner: KeyOwner, id: string): Promise<ApiKey> {
    const key = isUUID(id) ? await this.keys.findOneBy({ ...this.ownedBy(owner), id }) : null;
    if (!key) throw ApiError.notFound(`API key ${id} not found`);
    return key;
  }

  /**
   * Same key id and settings, new secret. The secret it replaces stops working with this update,
   * or at the end of `previousWindow` (rolling); a secret kept from an earlier regeneration ends
   * now, as a key has one previous secret at most.
   */
  async regenerate(owner: KeyOwner, id: string, previousWindow: PreviousSecretWindow = 'none'): Promise<IssuedApiKey> {
    const current = await this.get(owner, id);
    const secret = generateApiKey(current.sandbox);
    const regeneratedAt = new Date();
    const keptFor = PREVIOUS_SECRET_WINDOWS[previousWindow];
    const key = await this.updateActive(current, {
      keyHash: hashApiKey(secret),
      keyHint: apiKeyHint(secret),
      regeneratedAt,
      previousKeyHash: keptFor > 0 ? current.keyHash : null,
      previousKeyExpiresAt: keptFor > 0 ? new Date(regeneratedAt.getTime() + keptFor * 1000) : null,
    });
    return { key, secret };
  }

  /** Revoking twice is harmless and keeps the first revocation time. */
  async revoke(owner: KeyOwner, id: string): Promise<ApiKey> {
    const key = await this.get(owner, id);
    if (key.revokedAt) return key;
    const revokedAt = new Date();
    const result = await this.keys.update({ id: key.id, revokedAt: IsNull() }, { revokedAt });
    return result.affected ? Object.assign(key, { revokedAt }) : this.get(owner, id);
  }

  /** Refused with 422 when a limit is above the account's ceiling. */
  async updateLimits(owner: KeyOwner, id: string, limits: ApiKeyLimits): Promise<ApiKey> {
    assertWithinCeilings(await this.keys.manager.findOneByOrFail(Account, { id: owner.accountId }), limits);
    const changes: Partial<ApiKey> = {};
    if (limits.monthlyWordLimit !== undefined) changes.monthlyWordLimit = limits.monthlyWordLimit;
    if (limits.rateLimitPerMinute !== undefined) changes.rateLimitPerMinute = limits.rateLimitPerMinute;
    return this.updateActive(await this.get(owner, id), changes);
  }

  private ownedBy(owner: KeyOwner): FindOptionsWhere<ApiKey> {
    return owner.sandboxOnly ? { accountId: owner.accountId, sandbox: true } : { accountId: owner.accountId };
  }

  /** A revoked key stays revoked: it can be listed but never changed or brought back. */
  private async updateActive(key: ApiKey, changes: Partial<ApiKey>): Promise<ApiKey> {
    const result = key.revokedAt ? { affected: 0 } : await this.keys.update({ id: key.id, revokedAt: IsNull() }, changes);
    if (!result.affected) throw ApiError.notFound(`API key ${key.id} is revoked`);
    return Object.assign(key, changes);
  }
}

/** The account, locked against concurrent key creations; NO KEY UPDATE leaves inserts that merely reference it free. */
async function lockAccount(manager: EntityManager, accountId: string): Promise<Account> {
  await manager.query('SELECT 1 FROM translation.accounts WHERE id = $1 FOR NO KEY UPDATE', [accountId]);
  const account = await manager.findOneBy(Account, { id: accountId });
  if (!account) throw ApiError.notFound(`Account ${accountId} not found`);
  return account;
}
