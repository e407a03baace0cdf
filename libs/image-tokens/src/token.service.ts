import { Inject, Injectable } from '@nestjs/common';
import { DataSource } from 'typeorm';
import { accessTokenHint, generateAccessToken, hashAccessToken, isWellFormedAccessToken } from './access-token.util';
import type { PlanLimits } from './plan-limits.config';
import type { ImagePlan } from './plans';
import { TokenErrors } from './token-errors';

export const PLAN_LIMITS = Symbol('PLAN_LIMITS');

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

interface PrincipalRow {
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
 */
const CONSUME = `
  INSERT INTO image.monthly_usage AS mu (subscription_id, month, conversions)
  SELECT $1::uuid, $2::char(7), $3::int
  WHERE $3::int <= $4::int
  ON CONFLICT (subscription_id, month) DO UPDATE
    SET conversions = mu.conversions + EXCLUDED.conversions
    WHERE mu.conversions + EXCLUDED.conversions <= $4::int
  RETURNING mu.conversions`;

const PRINCIPAL = `
  SELECT s.id AS subscription_id, s.plan, s.active, s.monthly_limit_override, u.conversions
  FROM image.access_tokens t
  JOIN image.subscriptions s ON s.id = t.subscription_id
  LEFT JOIN image.monthly_usage u ON u.subscription_id = s.id AND u.month = $2
  WHERE t.token_hash = $1 AND t.revoked_at IS NULL`;

/** Calendar month (UTC) a moment counts towards, as stored in monthly_usage.month. */
export function usageMonth(at: Date = new Date()): string {
  return at.toISOString().slice(0, 7);
}

/** Access tokens of the image service, their subscriptions and monthly conversion counts. */
@Injectable()
export class TokenService {
  constructor(
    private readonly dataSource: DataSource,
    @Inject(PLAN_LIMITS) private readonly limits: PlanLimits,
  ) {}

  /** A new subscription with one token; `limitOverride` replaces the plan's monthly limit. */
  async create(plan: ImagePlan, limitOverride: number | null = null): Promise<CreatedToken> {
    const token = generateAccessToken();
    const subscriptionId = await this.dataSource.transaction(async (manager) => {
      const [subscription] = await manager.query<{ id: string }[]>(
        'INSERT INTO image.subscriptions (plan, monthly_limit_override) VALUES ($1, $2) RETURNING id',
        [plan, limitOverride],
      );
      await manager.query('INSERT INTO image.access_tokens (subscription_id, token_hash, token_hint) VALUES ($1, $2, $3)', [
        subscription.id,
        hashAccessToken(token),
        accessTokenHint(token),
      ]);
      return subscription.id;
    });
    return { subscriptionId, token };
  }

  /** The token's subscription, inactive ones included (callers decide); null when unknown or revoked. */
  async authenticate(token: string): Promise<TokenPrincipal | null> {
    const status = await this.status(token);
    return status && principalOf(status);
  }

  /**
   * The principal of a token that may convert now: 401 when missing or unknown, 403 when its
   * subscription is inactive, 402 when this month's limit is already reached, so an upload
   * that could not be counted is refused before it is read.
   */
  async requireConvertible(token: string | undefined): Promise<TokenPrincipal> {
    const status = token ? await this.status(token) : null;
    if (!status) throw TokenErrors.invalidToken();
    if (!status.active) throw TokenErrors.inactiveSubscription();
    if (status.usage >= status.limit) throw TokenErrors.limitReached(status.usage, status.limit);
    return principalOf(status);
  }

  /** The principal plus this month's usage, read in one query. */
  async status(token: string): Promise<TokenStatus | null> {
    // Malformed input can not match any stored hash; it is refused without a query.
    if (!isWellFormedAccessToken(token)) return null;
    const month = usageMonth();
    const [row] = await this.dataSource.query<PrincipalRow[]>(PRINCIPAL, [hashAccessToken(token), month]);
    if (!row) return null;
    return {
      subscriptionId: row.subscription_id,
      plan: row.plan,
      active: row.active,
      limit: row.monthly_limit_override ?? this.limits[row.plan],
      month,
      usage: row.conversions ?? 0,
    };
  }

  /** Counts `n` conversions in one atomic statement; null (nothing counted) when they would pass the limit. */
  async consume(subscriptionId: string, limit: number, n = 1): Promise<Consumption | null> {
    assertCount('n', n);
    assertCount('limit', limit);
    const month = usageMonth();
    const [row] = await this.dataSource.query<{ conversions: number }[]>(CONSUME, [subscriptionId, month, n, limit]);
    return row ? { month, usage: row.conversions } : null;
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

function principalOf({ subscriptionId, plan, active, limit }: TokenStatus): TokenPrincipal {
  return { subscriptionId, plan, active, limit };
}

function assertCount(name: string, value: number): void {
  if (!Number.isSafeInteger(value) || value < 0) throw new RangeError(`${name} must be a non-negative integer, got ${value}`);
}
