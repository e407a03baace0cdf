import { Inject, Injectable } from '@nestjs/common';
import type { AccountMode } from '@platform/contracts';
import { TranslationErrorCode } from '@platform/contracts';
import { ApiError } from '@platform/errors';
import { DataSource, EntityManager } from 'typeorm';
import { utcMonth } from './month';
import { monthlyLimits, type LimitedKey, type MonthlyLimitKind, type MonthlyLimits } from './monthly-limit';

export const QUOTA_OPTIONS = Symbol('QUOTA_OPTIONS');

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

/** The charge's moment (`at`, else now) is its `created_at`, which gives its month and its day (UTC). */
const INSERT_CHARGE = `
  INSERT INTO translation.quota_charges (key_id, month, words, cost_cents, reference, created_at)
  SELECT $1::uuid, to_char(moment.charged_at AT TIME ZONE 'UTC', 'YYYY-MM'), $3::bigint, $4::bigint, $5::text, moment.charged_at
  FROM (SELECT COALESCE($2::timestamptz, now()) AS charged_at) moment
  ON CONFLICT (reference) DO NOTHING
  RETURNING id, key_id, month, words, cost_cents, (created_at AT TIME ZONE 'UTC')::date::text AS day`;

/** Runs once the month's totals took the charge, under the same row locks. */
const ADD_DAY = `
  INSERT INTO translation.key_daily_usage AS d (key_id, day, words, cost_cents) VALUES ($1, $2, $3, $4)
  ON CONFLICT (key_id, day) DO UPDATE SET words = d.words + EXCLUDED.words, cost_cents = d.cost_cents + EXCLUDED.cost_cents`;

const UUID = /^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$/i;

/**
 * Adds the words to the account's total of the mode and to the key's, each only while it stays
 * within its limit, in one statement. The row lock taken by ON CONFLICT on the account's row
 * serialises concurrent charges of all keys of the account and mode (on any replica), the key's
 * row is locked only after it, and each WHERE is evaluated against the latest committed total,
 * so no interleaving can pass either limit. The key's insert reads the account's outcome, which
 * makes it run second and skips it when the account refused. A refusal by the key leaves the
 * account's addition to the transaction's rollback. The INSERT branches cover the month's
 * first charge, which alone may already be too large.
 * $1 account, $2 sandbox, $3 month, $4 words, $5 cents, $6 account limit, $7 key, $8 key limit.
 */
const ADD_USAGE = `
  WITH account AS (
    INSERT INTO translation.account_usage AS au (account_id, sandbox, month, words, cost_cents)
    SELECT $1::uuid, $2::boolean, $3::char(7), $4::bigint, $5::bigint
    WHERE $6::bigint IS NULL OR $4::bigint <= $6::bigint
    ON CONFLICT (account_id, sandbox, month) DO UPDATE
      SET words = au.words + EXCLUDED.words, cost_cents = au.cost_cents + EXCLUDED.cost_cents
      WHERE $6::bigint IS NULL OR au.words + EXCLUDED.words <= $6::bigint
    RETURNING au.words
  ), key AS (
    INSERT INTO translation.key_usage AS ku (key_id, month, words, cost_cents)
    SELECT $7::uuid, $3::char(7), $4::bigint, $5::bigint
    WHERE EXISTS (SELECT 1 FROM account) AND ($8::bigint IS NULL OR $4::bigint <= $8::bigint)
    ON CONFLICT (key_id, month) DO UPDATE
      SET words = ku.words + EXCLUDED.words, cost_cents = ku.cost_cents + EXCLUDED.cost_cents
      WHERE $8::bigint IS NULL OR ku.words + EXCLUDED.words <= $8::bigint
    RETURNING ku.words
  )
  SELECT EXISTS (SELECT 1 FROM account) AS account_ok, EXISTS (SELECT 1 FROM key) AS key_ok`;

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
  constructor(
    private readonly dataSource: DataSource,
    @Inject(QUOTA_OPTIONS) private readonly options: QuotaOptions,
  ) {}

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
    return this.dataSource.transaction(async (manager) => {
      // A concurrent charge with the same reference makes this insert wait for its outcome.
      const [charge] = await queryRows<ChargeRow & { day: string }>(manager, INSERT_CHARGE, [
        key.keyId,
        request.at ?? null,
        request.words,
        request.costCents,
        request.reference ?? null,
      ]);
      if (!charge) return this.earlierCharge(manager, request);
      const [added] = await queryRows<{ account_ok: boolean; key_ok: boolean }>(manager, ADD_USAGE, [
        key.accountId,
        key.sandbox,
        charge.month,
        request.words,
        request.costCents,
        limits.account,
        key.keyId,
        limits.key,
      ]);
      if (!added.account_ok) throw await refusal(manager, request, limits.accountKind, limits.account!);
      if (!added.key_ok) throw await refusal(manager, request, 'key', limits.key!);
      await manager.query(ADD_DAY, [key.keyId, charge.day, request.words, request.costCents]);
      return toReceipt(charge);
    });
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

  /** Words and cost a key has used in the month of `at` (default: this month). */
  usage(keyId: string, at?: Date): Promise<MonthlyUsage> {
    return keyMonth(this.dataSource.manager, keyId, at);
  }

  /** Words and cost all keys of an account in one mode have used in the month of `at`. */
  accountUsage(mode: AccountMode, at?: Date): Promise<MonthlyUsage> {
    return accountMonth(this.dataSource.manager, mode, at);
  }

  private async earlierCharge(manager: EntityManager, request: ChargeRequest): Promise<ChargeReceipt> {
    const [charge] = await queryRows<ChargeRow>(
      manager,
      'SELECT id, key_id, month, words, cost_cents FROM translation.quota_charges WHERE reference = $1',
      [request.reference],
    );
    if (charge.key_id !== request.key.keyId) throw new Error(`Charge reference ${request.reference} belongs to another key`);
    return toReceipt(charge);
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

/** Reads in the refusing transaction, where the total that refused is still locked. */
async function refusal(manager: EntityManager, request: ChargeRequest, kind: MonthlyLimitKind, limit: number): Promise<ApiError> {
  const { key, words, at } = request;
  const used = kind === 'key' ? await keyMonth(manager, key.keyId, at) : await accountMonth(manager, key, at);
  const need = `this request needs ${words} words, ${Math.max(0, limit - used.words)} of ${limit} remain for ${used.month} (UTC)`;
  const messages: Record<MonthlyLimitKind, string> = {
    key: `The key's monthly word limit is reached: ${need}; a key with the manage scope can raise it (PATCH /api/v1/keys/{id}) up to the account's ceiling`,
    'account-ceiling': `The account's monthly ceiling is reached (all its ${key.sandbox ? 'sandbox' : 'live'} keys together): ${need}; the ceiling is set by the operator`,
    'sandbox-quota': `The account's sandbox quota is reached (all its sandbox keys together): ${need}; live keys are not held to it`,
  };
  return new ApiError(402, TranslationErrorCode.QuotaExceeded, messages[kind]);
}
