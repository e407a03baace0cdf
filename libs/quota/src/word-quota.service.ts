import { Inject, Injectable } from '@nestjs/common';
import type { ApiKeyPrincipal } from '@platform/contracts';
import { TranslationErrorCode } from '@platform/contracts';
import { ApiError } from '@platform/errors';
import { DataSource, EntityManager } from 'typeorm';
import { utcMonth } from './month';
import { effectiveMonthlyLimit } from './monthly-limit';

export const QUOTA_OPTIONS = Symbol('QUOTA_OPTIONS');

export interface QuotaOptions {
  /** The test quota: the most words a sandbox key may use in one calendar month. */
  sandboxMonthlyWords: number;
}

export interface ChargeRequest {
  keyId: string;
  words: number;
  costCents: number;
  /** The key's monthly word limit (see limitFor); null when unlimited. */
  limit: number | null;
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

const UUID = /^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$/i;

/**
 * Adds the words only while the month's total stays within the limit. The row lock taken by
 * ON CONFLICT serialises concurrent charges of one key (on any replica), and the WHERE is
 * evaluated against the latest committed total, so no interleaving can pass the limit.
 * The INSERT branch covers the month's first charge, which alone may already be too large.
 */
const ADD_USAGE = `
  INSERT INTO translation.key_usage AS ku (key_id, month, words, cost_cents)
  SELECT $1::uuid, $2::char(7), $3::bigint, $4::bigint
  WHERE $5::bigint IS NULL OR $3::bigint <= $5::bigint
  ON CONFLICT (key_id, month) DO UPDATE
    SET words = ku.words + EXCLUDED.words, cost_cents = ku.cost_cents + EXCLUDED.cost_cents
    WHERE $5::bigint IS NULL OR ku.words + EXCLUDED.words <= $5::bigint
  RETURNING ku.words`;

/** Marks the charge refunded and gives its words back in one statement, so it happens at most once. */
const refundSql = (column: 'id' | 'reference') => `
  WITH refunded AS (
    UPDATE translation.quota_charges SET refunded_at = now()
    WHERE ${column} = $1 AND refunded_at IS NULL
    RETURNING key_id, month, words, cost_cents
  )
  UPDATE translation.key_usage ku
  SET words = ku.words - r.words, cost_cents = ku.cost_cents - r.cost_cents
  FROM refunded r
  WHERE ku.key_id = r.key_id AND ku.month = r.month
  RETURNING ku.key_id`;

/**
 * Monthly word quota per key, kept in Postgres: translation.key_usage holds the month's totals
 * and translation.quota_charges the ledger of every charge, so a charge can be replayed
 * (by reference) or refunded exactly.
 */
@Injectable()
export class WordQuotaService {
  constructor(
    private readonly dataSource: DataSource,
    @Inject(QUOTA_OPTIONS) private readonly options: QuotaOptions,
  ) {}

  /** The monthly word limit of a key, sandbox test quota included; null when unlimited. */
  limitFor(key: Pick<ApiKeyPrincipal, 'sandbox' | 'monthlyWordLimit'>): number | null {
    return effectiveMonthlyLimit(key, this.options.sandboxMonthlyWords);
  }

  /**
   * Checks and charges in one transaction: either the ledger row and the added words are both
   * written, or (402 quota_exceeded) nothing is.
   */
  async charge(request: ChargeRequest): Promise<ChargeReceipt> {
    assertCount('words', request.words);
    assertCount('costCents', request.costCents);
    if (request.limit !== null) assertCount('limit', request.limit);
    const month = utcMonth(request.at);
    return this.dataSource.transaction(async (manager) => {
      // A concurrent charge with the same reference makes this insert wait for its outcome.
      const [charge] = await queryRows<ChargeRow>(
        manager,
        `INSERT INTO translation.quota_charges (key_id, month, words, cost_cents, reference)
         VALUES ($1, $2, $3, $4, $5) ON CONFLICT (reference) DO NOTHING
         RETURNING id, key_id, month, words, cost_cents`,
        [request.keyId, month, request.words, request.costCents, request.reference ?? null],
      );
      if (!charge) return this.earlierCharge(manager, request);
      const added = await queryRows(manager, ADD_USAGE, [request.keyId, month, request.words, request.costCents, request.limit]);
      if (added.length === 0) throw await this.refusal(manager, request, month);
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
  async usage(keyId: string, at?: Date): Promise<MonthlyUsage> {
    const month = utcMonth(at);
    const [row] = await this.dataSource.query<{ words: string; cost_cents: string }[]>(
      'SELECT words, cost_cents FROM translation.key_usage WHERE key_id = $1 AND month = $2',
      [keyId, month],
    );
    return { month, words: Number(row?.words ?? 0), costCents: Number(row?.cost_cents ?? 0) };
  }

  private async earlierCharge(manager: EntityManager, request: ChargeRequest): Promise<ChargeReceipt> {
    const [charge] = await queryRows<ChargeRow>(
      manager,
      'SELECT id, key_id, month, words, cost_cents FROM translation.quota_charges WHERE reference = $1',
      [request.reference],
    );
    if (charge.key_id !== request.keyId) throw new Error(`Charge reference ${request.reference} belongs to another key`);
    return toReceipt(charge);
  }

  private async refusal(manager: EntityManager, request: ChargeRequest, month: string): Promise<ApiError> {
    const limit = request.limit ?? 0;
    const [usage] = await queryRows<{ words: string }>(manager, 'SELECT words FROM translation.key_usage WHERE key_id = $1 AND month = $2', [
      request.keyId,
      month,
    ]);
    const remaining = Math.max(0, limit - Number(usage?.words ?? 0));
    return new ApiError(
      402,
      TranslationErrorCode.QuotaExceeded,
      `Monthly word limit reached: this request needs ${request.words} words, ${remaining} of ${limit} remain for ${month} (UTC)`,
    );
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
