import { Inject, Injectable } from '@nestjs/common';
import { LastUseRecorder, PreparedStatement } from '@platform/database';
import { ApiError, DependencyUnavailableError } from '@platform/errors';
import { MetricsRegistry, quotaRefusals } from '@platform/service-kit';
import { isUUID } from 'class-validator';
import type { Counter } from 'prom-client';
import { DataSource, type EntityManager } from 'typeorm';
import { accessTokenHint, generateAccessToken, hashAccessToken, isWellFormedAccessToken } from './access-token.util';
import type { PlanLimits } from './plan-limits.config';
import type { ImagePlan } from './plans';
import { TokenErrors } from './token-errors';

export const PLAN_LIMITS = Symbol('PLAN_LIMITS');
/** The monthly conversion limit of a token's subscription, as `quota_refusals_total` names it. */
const MONTHLY_CONVERSIONS = 'token_monthly_conversions';

/** What a valid token grants: the subscription it belongs to and that subscription's monthly limit. */
export interface TokenPrincipal {
  subscriptionId: string;
  plan: ImagePlan;
  active: boolean;
  limit: number;
}

export interface TokenStatus extends TokenPrincipal {
  month: string;
  usage: number;
}

export interface CreatedToken {
  subscriptionId: string;
  /** The plain token; only its hash is stored, so this is the one time it can be shown. */
  token: string;
}

/** Conversions counted by consume(); release() takes the same month back. */
export interface Consumption {
  month: string;
  usage: number;
}

/** A subscription as its account sees it: plan, limit and this month's conversions. */
export interface SubscriptionView {
  id: string;
  plan: ImagePlan;
  active: boolean;
  /** The monthly limit in force: the subscription's own override, otherwise its plan's. */
  limit: number;
  /** The customer account of the translation product it is linked to, if any. */
  accountId: string | null;
  createdAt: Date;
  month: string;
  usage: number;
}

/** A token without its secret: only the hash is stored, and the hint tells tokens apart. */
export interface AccessTokenView {
  id: string;
  subscriptionId: string;
  hint: string;
  createdAt: Date;
  revokedAt: Date | null;
  /** When it last authenticated a request, to the minute; null: never. */
  lastUsedAt: Date | null;
}

export interface IssuedAccessToken {
  token: AccessTokenView;
  /** The plain token, shown once. */
  secret: string;
}

export interface MonthlyConversions {
  month: string;
  conversions: number;
}

/** Tokens a subscription may hold that are not revoked; each is a credential to keep track of. */
export const MAX_TOKENS_PER_SUBSCRIPTION = 20;

interface PrincipalRow {
  token_id: string;
  subscription_id: string;
  plan: ImagePlan;
  active: boolean;
  monthly_limit_override: number | null;
  conversions?: number | null;
}

/**
 * Counts only while the month's total stays within the limit. The row lock taken by ON CONFLICT
 * serialises concurrent requests of one subscription (on any replica) and the WHERE sees the
 * latest committed total, so no interleaving passes the limit. The INSERT branch covers the
 * month's first conversion, which alone may already exceed a limit of 0.
 * Nothing is counted once $5 has passed (`in_time` false): the database got to the statement only
 * after the request gave up on it, as a server that hung does when it goes on.
 */
const CONSUME = new PreparedStatement<{ conversions: number | null; in_time: boolean }>(
  'consume-image-conversions-in-time',
  `WITH clock AS (SELECT $5::timestamptz IS NULL OR clock_timestamp() <= $5::timestamptz AS in_time),
  counted AS (
    INSERT INTO image.monthly_usage AS mu (subscription_id, month, conversions)
    SELECT $1::uuid, $2::char(7), $3::int FROM clock
    WHERE $3::int <= $4::int AND clock.in_time
    ON CONFLICT (subscription_id, month) DO UPDATE
      SET conversions = mu.conversions + EXCLUDED.conversions
      WHERE mu.conversions + EXCLUDED.conversions <= $4::int
    RETURNING mu.conversions
  )
  SELECT (SELECT conversions FROM counted) AS conversions, clock.in_time FROM clock`,
  { notAfter: true },
);

const PRINCIPAL = new PreparedStatement<PrincipalRow>(
  'authenticate-access-token',
  `SELECT t.id AS token_id, s.id AS subscription_id, s.plan, s.active, s.monthly_limit_override, u.conversions
  FROM image.access_tokens t
  JOIN image.subscriptions s ON s.id = t.subscription_id
  LEFT JOIN image.monthly_usage u ON u.subscription_id = s.id AND u.month = $2
  WHERE t.token_hash = $1 AND t.revoked_at IS NULL`,
);

interface SubscriptionRow {
  id: string;
  plan: ImagePlan;
  active: boolean;
  monthly_limit_override: number | null;
  account_id: string | null;
  created_at: Date;
  conversions: number | null;
}

interface TokenRow {
  id: string;
  subscription_id: string;
  token_hint: string;
  created_at: Date;
  revoked_at: Date | null;
  last_used_at: Date | null;
}

const SUBSCRIPTIONS = `
  SELECT s.id, s.plan, s.active, s.monthly_limit_override, s.account_id, s.created_at, u.conversions
  FROM image.subscriptions s
  LEFT JOIN image.monthly_usage u ON u.subscription_id = s.id AND u.month = $2`;

const TOKEN_COLUMNS = 'id, subscription_id, token_hint, created_at, revoked_at, last_used_at';

/** Calendar month (UTC) a moment counts towards, as stored in monthly_usage.month. */
export function usageMonth(at: Date = new Date()): string {
  return at.toISOString().slice(0, 7);
}

/** The `count` calendar months up to and including the month of `at`, oldest first. */
export function recentMonths(count: number, at: Date = new Date()): string[] {
  return Array.from({ length: count }, (_, i) => usageMonth(new Date(Date.UTC(at.getUTCFullYear(), at.getUTCMonth() - (count - 1 - i), 1))));
}

const subscriptionNotFound = (id: string) => ApiError.notFound(`Image subscription ${id} not found`);

/** Access tokens of the image service, their subscriptions and monthly conversion counts. */
@Injectable()
export class TokenService {
  private readonly refusals: Counter<string>;
  private readonly lastUse: LastUseRecorder;

  constructor(
    private readonly dataSource: DataSource,
    @Inject(PLAN_LIMITS) private readonly limits: PlanLimits,
    metrics: MetricsRegistry,
  ) {
    this.refusals = quotaRefusals(metrics, [MONTHLY_CONVERSIONS]);
    this.lastUse = new LastUseRecorder(dataSource, 'image.access_tokens');
  }

  /**
   * A new subscription with one token; `limitOverride` replaces the plan's monthly limit, and
   * `accountId` links it to a customer account of the translation product.
   */
  async create(plan: ImagePlan, limitOverride: number | null = null, accountId: string | null = null): Promise<CreatedToken> {
    return this.dataSource.transaction(async (manager) => {
      const [subscription] = await manager.query<{ id: string }[]>(
        'INSERT INTO image.subscriptions (plan, monthly_limit_override, account_id) VALUES ($1, $2, $3) RETURNING id',
        [plan, limitOverride, accountId],
      );
      const { secret } = await insertToken(manager, subscription.id);
      return { subscriptionId: subscription.id, token: secret };
    });
  }

  /** Links a subscription to a customer account (or unlinks it with null); null when there is no such subscription. */
  async link(subscriptionId: string, accountId: string | null): Promise<SubscriptionView | null> {
    if (!isUUID(subscriptionId)) return null;
    const [[updated]] = await this.dataSource.query<[{ id: string }[], number]>('UPDATE image.subscriptions SET account_id = $2 WHERE id = $1 RETURNING id', [
      subscriptionId,
      accountId,
    ]);
    return updated ? this.find(subscriptionId) : null;
  }

  /** The account's subscriptions, oldest first, each with this month's conversions. */
  async subscriptionsOf(accountId: string): Promise<SubscriptionView[]> {
    const month = usageMonth();
    const rows = await this.dataSource.query<SubscriptionRow[]>(`${SUBSCRIPTIONS} WHERE s.account_id = $1 ORDER BY s.created_at, s.id`, [accountId, month]);
    return rows.map((row) => this.viewOf(row, month));
  }

  /** One of the account's subscriptions; 404 for unknown ids, other accounts' ids and ids that are not UUIDs alike. */
  async subscriptionOf(accountId: string, subscriptionId: string): Promise<SubscriptionView> {
    const subscription = await this.find(subscriptionId);
    if (!subscription || subscription.accountId !== accountId) throw subscriptionNotFound(subscriptionId);
    return subscription;
  }

  /** The subscription's tokens, revoked ones included, oldest first. */
  async tokensOf(accountId: string, subscriptionId: string): Promise<AccessTokenView[]> {
    await this.subscriptionOf(accountId, subscriptionId);
    const rows = await this.dataSource.query<TokenRow[]>(`SELECT ${TOKEN_COLUMNS} FROM image.access_tokens WHERE subscription_id = $1 ORDER BY created_at, id`, [
      subscriptionId,
    ]);
    return rows.map(tokenViewOf);
  }

  /**
   * A further token for one of the account's subscriptions, within MAX_TOKENS_PER_SUBSCRIPTION
   * tokens not revoked (422 beyond). The subscription's row lock makes the count and the insert
   * one step for concurrent requests.
   */
  async issueToken(accountId: string, subscriptionId: string): Promise<IssuedAccessToken> {
    if (!isUUID(subscriptionId)) throw subscriptionNotFound(subscriptionId);
    return this.dataSource.transaction(async (manager) => {
      const [owned] = await manager.query<{ id: string }[]>('SELECT id FROM image.subscriptions WHERE id = $1 AND account_id = $2 FOR UPDATE', [subscriptionId, accountId]);
      if (!owned) throw subscriptionNotFound(subscriptionId);
      const [{ live }] = await manager.query<{ live: number }[]>('SELECT count(*)::int AS live FROM image.access_tokens WHERE subscription_id = $1 AND revoked_at IS NULL', [
        subscriptionId,
      ]);
      if (live >= MAX_TOKENS_PER_SUBSCRIPTION) {
        throw ApiError.invalidParameter(`A subscription holds at most ${MAX_TOKENS_PER_SUBSCRIPTION} tokens that are not revoked; revoke one first`);
      }
      return insertToken(manager, subscriptionId);
    });
  }

  /** Revokes one token of the account's subscription: it is refused with 401 from the next request on. Revoking twice changes nothing. */
  async revokeToken(accountId: string, subscriptionId: string, tokenId: string): Promise<AccessTokenView> {
    await this.subscriptionOf(accountId, subscriptionId);
    const notFound = () => ApiError.notFound(`Access token ${tokenId} not found`);
    if (!isUUID(tokenId)) throw notFound();
    const [[revoked]] = await this.dataSource.query<[TokenRow[], number]>(
      `UPDATE image.access_tokens SET revoked_at = COALESCE(revoked_at, now()) WHERE id = $1 AND subscription_id = $2 RETURNING ${TOKEN_COLUMNS}`,
      [tokenId, subscriptionId],
    );
    if (!revoked) throw notFound();
    return tokenViewOf(revoked);
  }

  /**
   * Conversions of each of the last `months` calendar months (UTC) of a subscription looked up
   * with subscriptionOf(), oldest first, months without any as 0.
   */
  async monthlyConversions(subscription: SubscriptionView, months = 12): Promise<MonthlyConversions[]> {
    const wanted = recentMonths(months);
    const rows = await this.dataSource.query<{ month: string; conversions: number }[]>(
      'SELECT month, conversions FROM image.monthly_usage WHERE subscription_id = $1 AND month = ANY($2::char(7)[])',
      [subscription.id, wanted],
    );
    const counted = new Map(rows.map((row) => [row.month, row.conversions]));
    return wanted.map((month) => ({ month, conversions: counted.get(month) ?? 0 }));
  }

  /** The token's subscription, inactive ones included (callers decide); null when unknown or revoked. */
  async authenticate(token: string): Promise<TokenPrincipal | null> {
    const status = await this.status(token);
    return status && principalOf(status);
  }

  /**
   * The principal of a token that may convert now, from its `status` (null for a missing or
   * unknown token): 401 for none, 403 when its subscription is inactive, 402 when this month's
   * limit is already reached, so an upload that could not be counted is refused before it is read.
   */
  convertible(status: TokenStatus | null): TokenPrincipal {
    if (!status) throw TokenErrors.invalidToken();
    if (!status.active) throw TokenErrors.inactiveSubscription();
    if (status.usage >= status.limit) {
      this.refusals.inc({ limit: MONTHLY_CONVERSIONS });
      throw TokenErrors.limitReached(status.usage, status.limit);
    }
    return principalOf(status);
  }

  /** The principal plus this month's usage, read in one query. */
  async status(token: string): Promise<TokenStatus | null> {
    // Malformed input can not match any stored hash; it is refused without a query.
    if (!isWellFormedAccessToken(token)) return null;
    const month = usageMonth();
    const [row] = await PRINCIPAL.rows(this.dataSource, [hashAccessToken(token), month]);
    if (!row) return null;
    // Refused for its subscription or limit or not, the token was presented and is real: it was used.
    this.lastUse.note(row.token_id);
    return {
      subscriptionId: row.subscription_id,
      plan: row.plan,
      active: row.active,
      limit: this.limitOf(row),
      month,
      usage: row.conversions ?? 0,
    };
  }

  /** Counts `n` conversions in one atomic statement; null (nothing counted) when they would pass the limit. */
  async consume(subscriptionId: string, limit: number, n = 1): Promise<Consumption | null> {
    assertCount('n', n);
    assertCount('limit', limit);
    const month = usageMonth();
    const [row] = await CONSUME.rows(this.dataSource, [subscriptionId, month, n, limit]);
    if (!row.in_time) throw new DependencyUnavailableError('the database', 'The database answered the conversion count too late; nothing was counted');
    if (row.conversions !== null) return { month, usage: row.conversions };
    this.refusals.inc({ limit: MONTHLY_CONVERSIONS });
    return null;
  }

  private async find(subscriptionId: string): Promise<SubscriptionView | null> {
    if (!isUUID(subscriptionId)) return null;
    const month = usageMonth();
    const [row] = await this.dataSource.query<SubscriptionRow[]>(`${SUBSCRIPTIONS} WHERE s.id = $1`, [subscriptionId, month]);
    return row ? this.viewOf(row, month) : null;
  }

  /** The monthly limit in force: the subscription's own override, otherwise its plan's. */
  private limitOf(row: { plan: ImagePlan; monthly_limit_override: number | null }): number {
    return row.monthly_limit_override ?? this.limits[row.plan];
  }

  private viewOf(row: SubscriptionRow, month: string): SubscriptionView {
    return {
      id: row.id,
      plan: row.plan,
      active: row.active,
      limit: this.limitOf(row),
      accountId: row.account_id,
      createdAt: row.created_at,
      month,
      usage: row.conversions ?? 0,
    };
  }

  /** Gives back conversions counted for work that then failed; never below zero. */
  async release(subscriptionId: string, month: string, n: number): Promise<void> {
    assertCount('n', n);
    await this.dataSource.query(
      'UPDATE image.monthly_usage SET conversions = GREATEST(conversions - $3, 0) WHERE subscription_id = $1 AND month = $2',
      [subscriptionId, month, n],
    );
  }
}

async function insertToken(manager: EntityManager, subscriptionId: string): Promise<IssuedAccessToken> {
  const secret = generateAccessToken();
  const [row] = await manager.query<TokenRow[]>(
    `INSERT INTO image.access_tokens (subscription_id, token_hash, token_hint) VALUES ($1, $2, $3) RETURNING ${TOKEN_COLUMNS}`,
    [subscriptionId, hashAccessToken(secret), accessTokenHint(secret)],
  );
  return { token: tokenViewOf(row), secret };
}

function tokenViewOf(row: TokenRow): AccessTokenView {
  return { id: row.id, subscriptionId: row.subscription_id, hint: row.token_hint, createdAt: row.created_at, revokedAt: row.revoked_at, lastUsedAt: row.last_used_at };
}

function principalOf({ subscriptionId, plan, active, limit }: TokenStatus): TokenPrincipal {
  return { subscriptionId, plan, active, limit };
}

function assertCount(name: string, value: number): void {
  if (!Number.isSafeInteger(value) || value < 0) throw new RangeError(`${name} must be a non-negative integer, got ${value}`);
}
