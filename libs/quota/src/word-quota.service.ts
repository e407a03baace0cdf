import { Inject, Injectable, Logger } from '@nestjs/common';
import type { AccountMode } from '@platform/contracts';
import { TranslationErrorCode } from '@platform/contracts';
import { PreparedStatement } from '@platform/database';
import { ApiError, DependencyUnavailableError } from '@platform/errors';
import { MetricsRegistry, quotaRefusals } from '@platform/service-kit';
import { setTimeout as sleep } from 'node:timers/promises';
import type { Counter } from 'prom-client';
import { DataSource, EntityManager } from 'typeorm';
import { utcMonth } from './month';
import { monthlyLimits, type LimitedKey, type MonthlyLimitKind, type MonthlyLimits } from './monthly-limit';

export const QUOTA_OPTIONS = Symbol('QUOTA_OPTIONS');

/** Each monthly limit as `quota_refusals_total` names it. */
const REFUSED_LIMIT: Record<MonthlyLimitKind, string> = {
  key: 'key_monthly_words',
  'account-ceiling': 'account_monthly_words',
  'sandbox-quota': 'sandbox_monthly_words',
};

export interface QuotaOptions {
  /** The test quota: the most words all sandbox keys of an account may use in one calendar month. */
  sandboxMonthlyWords: number;
}

export interface ChargeRequest {
  /** The key that uses the words; its own limit and its account's (in its mode) both apply. */
  key: LimitedKey;
  words: number;
  costCents: number;
  /**
   * Makes the charge idempotent: charging the same reference again returns the first receipt
   * and charges nothing. References are unique across all keys, so callers namespace them
   * (e.g. `batch:<job id>`).
   */
  reference?: string;
  /** The moment the words are used; decides the month. Defaults to now. */
  at?: Date;
}

export interface ChargeReceipt {
  chargeId: string;
  month: string;
  words: number;
  costCents: number;
}

export interface MonthlyUsage {
  month: string;
  words: number;
  costCents: number;
}

export type RefundTarget = { chargeId: string } | { reference: string };

interface ChargeRow {
  id: string;
  key_id: string;
  month: string;
  words: string;
  cost_cents: string;
}

/**
 * translation.charge_words does the whole charge in one round trip: the ledger row, the month's
 * totals of the account (in the key's mode) and of the key, each only while it stays within its
 * limit, and the key's day. The row lock taken by ON CONFLICT on the account's row serialises
 * concurrent charges of all keys of the account and mode (on any replica), the key's row is
 * locked only after it, and each limit is checked against the latest committed total, so no
 * interleaving can pass either limit. A refusal (SQLSTATE QU402) undoes all of it.
 * $1 key, $2 account, $3 sandbox, $4 moment, $5 words, $6 cents, $7 reference, $8 account limit, $9 key limit,
 * $10 the moment after which the charge is undone (QU408): the database got to it only after the request gave up.
 */
const CHARGE = new PreparedStatement<ChargeRow & { replayed: boolean }>(
  'charge-words-in-time',
  `SELECT charge_id AS id, charged_key AS key_id, charged_month AS month, charged_words AS words, charged_cents AS cost_cents, replayed
  FROM translation.charge_words($1, $2, $3, $4, $5, $6, $7, $8, $9, $10)`,
  { notAfter: true },
);

/** The SQLSTATE of a refused charge; its message names the level, its detail the words that level had used. */
const REFUSED = 'QU402';
/** The SQLSTATE of a charge undone because it came after its deadline. */
const TOO_LATE = 'QU408';

const UUID = /^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$/i;

/** A refund the database could not take at once is tried again this often, for up to an hour. */
const REFUND_RETRY_MS = 5_000;
const REFUND_RETRIES = 720;

/**
 * Marks the charge refunded and gives its words back to the key and its account, for its month
 * and its day, in one statement, so it happens at most once. The key's updates read the
 * account's, which makes the account's row lock first, as a charge takes it.
 */
const refundSql = (column: 'id' | 'reference') => `
  WITH refunded AS (
    UPDATE translation.quota_charges SET refunded_at = now()
    WHERE ${column} = $1 AND refunded_at IS NULL
    RETURNING key_id, month, (created_at AT TIME ZONE 'UTC')::date AS day, words, cost_cents
  ), account AS (
    UPDATE translation.account_usage au
    SET words = au.words - r.words, cost_cents = au.cost_cents - r.cost_cents
    FROM refunded r JOIN translation.api_keys k ON k.id = r.key_id
    WHERE au.account_id = k.account_id AND au.sandbox = k.sandbox AND au.month = r.month
    RETURNING au.account_id
  ), day AS (
    UPDATE translation.key_daily_usage d
    SET words = d.words - r.words, cost_cents = d.cost_cents - r.cost_cents
    FROM refunded r, (SELECT count(*) FROM account) AS account_first
    WHERE d.key_id = r.key_id AND d.day = r.day
  )
  UPDATE translation.key_usage ku
  SET words = ku.words - r.words, cost_cents = ku.cost_cents - r.cost_cents
  FROM refunded r, (SELECT count(*) FROM account) AS account_first
  WHERE ku.key_id = r.key_id AND ku.month = r.month
  RETURNING ku.key_id`;

/**
 * Monthly word quotas in two levels, kept in Postgres: translation.key_usage holds each key's
 * month, translation.account_usage each account's per mode, translation.key_daily_usage each
 * key's day (for the usage history), and translation.quota_charges the ledger of every charge,
 * so a charge can be replayed (by reference) or refunded exactly.
 */
@Injectable()
export class WordQuotaService {
  private readonly logger = new Logger('WordQuota');
  private readonly refusals: Counter<string>;

  constructor(
    private readonly dataSource: DataSource,
    @Inject(QUOTA_OPTIONS) private readonly options: QuotaOptions,
    metrics: MetricsRegistry,
  ) {
    this.refusals = quotaRefusals(metrics, Object.values(REFUSED_LIMIT));
  }

  /** The key's own monthly word limit and its account's in the key's mode. */
  limitsFor(key: Pick<LimitedKey, 'sandbox' | 'monthlyWordLimit' | 'account'>): MonthlyLimits {
    return monthlyLimits(key, this.options.sandboxMonthlyWords);
  }

  /**
   * Checks both levels and charges in one transaction: either the ledger row and the added words
   * are all written, or (402 quota_exceeded, naming the limit that was hit) nothing is.
   */
  async charge(request: ChargeRequest): Promise<ChargeReceipt> {
    assertCount('words', request.words);
    assertCount('costCents', request.costCents);
    const { key } = request;
    const limits = this.limitsFor(key);
    const params = [key.keyId, key.accountId, key.sandbox, request.at ?? null, request.words, request.costCents, request.reference ?? null, limits.account, limits.key];
    const [charge] = await CHARGE.rows(this.dataSource, params).catch((error: unknown) => {
      if (driverError(error)?.code === TOO_LATE) throw new DependencyUnavailableError('the database', 'The database answered the charge too late; it was undone', { cause: error });
      const refused = refusedLevel(error);
      if (!refused) throw error;
      const [kind, limit] = refused.level === 'key' ? (['key', limits.key!] as const) : ([limits.accountKind, limits.account!] as const);
      this.refusals.inc({ limit: REFUSED_LIMIT[kind] });
      throw refusal(request, kind, limit, refused.used);
    });
    if (charge.replayed && charge.key_id !== key.keyId) throw new Error(`Charge reference ${request.reference} belongs to another key`);
    return toReceipt(charge);
  }

  /**
   * Gives back exactly what one charge took, once; later calls return false. Given a `manager`,
   * it happens in that transaction, so it commits together with what made it due.
   */
  async refund(target: RefundTarget, manager?: EntityManager): Promise<boolean> {
    const [column, value] = 'chargeId' in target ? (['id', target.chargeId] as const) : (['reference', target.reference] as const);
    if (column === 'id' && !UUID.test(value)) return false;
    const refund = (m: EntityManager) => queryRows(m, refundSql(column), [value]);
    const restored = await (manager ? refund(manager) : this.dataSource.transaction(refund));
    return restored.length > 0;
  }

  /**
   * `refund` for a request that failed after its charge, which must not fail in turn: when the
   * database cannot take the refund now (it went away, or hangs, right after the charge) it is
   * tried again every few seconds in the background of this process until it is made, or
   * `keep` (run in the refund's transaction) finds the charge due after all.
   */
  async refundEventually(target: RefundTarget, keep?: (manager: EntityManager) => Promise<boolean>): Promise<void> {
    const attempt = () =>
      this.dataSource.transaction(async (manager) => {
        if (!(await keep?.(manager))) await this.refund(target, manager);
      });
    try {
      await attempt();
    } catch (error) {
      this.logger.warn({ msg: 'refund postponed: the database did not take it; trying again', target, err: String(error) });
      void this.retryRefund(attempt, target);
    }
  }

  private async retryRefund(attempt: () => Promise<void>, target: RefundTarget): Promise<void> {
    for (let retry = 1; retry <= REFUND_RETRIES; retry++) {
      await sleep(REFUND_RETRY_MS, undefined, { ref: false });
      try {
        await attempt();
        this.logger.log({ msg: 'postponed refund made', target, retry });
        return;
      } catch {
        // The database is still away; the next round tries again.
      }
    }
    this.logger.error({ msg: 'postponed refund given up: the database did not take it for an hour', target });
  }

  /** Words and cost a key has used in the month of `at` (default: this month). */
  usage(keyId: string, at?: Date): Promise<MonthlyUsage> {
    return keyMonth(this.dataSource.manager, keyId, at);
  }

  /** Words and cost all keys of an account in one mode have used in the month of `at`. */
  accountUsage(mode: AccountMode, at?: Date): Promise<MonthlyUsage> {
    return accountMonth(this.dataSource.manager, mode, at);
  }
}

function assertCount(name: string, value: number): void {
  if (!Number.isSafeInteger(value) || value < 0) throw new RangeError(`${name} must be a non-negative integer, got ${value}`);
}

function toReceipt(row: ChargeRow): ChargeReceipt {
  return { chargeId: row.id, month: row.month, words: Number(row.words), costCents: Number(row.cost_cents) };
}

async function queryRows<T = unknown>(manager: EntityManager, sql: string, params: unknown[]): Promise<T[]> {
  // The structured result has the rows for every command; the plain one wraps UPDATE results.
  const result = await manager.queryRunner!.query(sql, params, true);
  return result.records as T[];
}

function keyMonth(manager: EntityManager, keyId: string, at?: Date): Promise<MonthlyUsage> {
  return monthOf(manager, 'SELECT words, cost_cents FROM translation.key_usage WHERE key_id = $1 AND month = $2', [keyId], at);
}

function accountMonth(manager: EntityManager, { accountId, sandbox }: AccountMode, at?: Date): Promise<MonthlyUsage> {
  return monthOf(manager, 'SELECT words, cost_cents FROM translation.account_usage WHERE account_id = $1 AND sandbox = $2 AND month = $3', [accountId, sandbox], at);
}

async function monthOf(manager: EntityManager, sql: string, params: unknown[], at?: Date): Promise<MonthlyUsage> {
  const month = utcMonth(at);
  const [row] = await manager.query<{ words: string; cost_cents: string }[]>(sql, [...params, month]);
  return { month, words: Number(row?.words ?? 0), costCents: Number(row?.cost_cents ?? 0) };
}

const driverError = (error: unknown) => (error as { driverError?: { code?: string; message?: string; detail?: string } }).driverError;

/** The level a charge was refused by and the words it had used, read under the lock that refused. */
function refusedLevel(error: unknown): { level: 'account' | 'key'; used: number } | undefined {
  const refused = driverError(error);
  if (refused?.code !== REFUSED) return undefined;
  return { level: refused.message === 'key' ? 'key' : 'account', used: Number(refused.detail) };
}

function refusal(request: ChargeRequest, kind: MonthlyLimitKind, limit: number, used: number): ApiError {
  const { key, words, at } = request;
  const need = `this request needs ${words} words, ${Math.max(0, limit - used)} of ${limit} remain for ${utcMonth(at)} (UTC)`;
  const messages: Record<MonthlyLimitKind, string> = {
    key: `The key's monthly word limit is reached: ${need}; a key with the manage scope can raise it (PATCH /api/v1/keys/{id}) up to the account's ceiling`,
    'account-ceiling': `The account's monthly ceiling is reached (all its ${key.sandbox ? 'sandbox' : 'live'} keys together): ${need}; the ceiling is set by the operator`,
    'sandbox-quota': `The account's sandbox quota is reached (all its sandbox keys together): ${need}; live keys are not held to it`,
  };
  return new ApiError(402, TranslationErrorCode.QuotaExceeded, messages[kind]);
}
