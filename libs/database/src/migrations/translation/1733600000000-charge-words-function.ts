import { MigrationInterface, QueryRunner } from 'typeorm';
import type { DeclaresRevertLoss } from '../../migration-runner';

/**
 * A word charge as one call: the ledger row, the account's and the key's month and the key's day,
 * each statement run in turn as before, but in a single round trip, since a charge runs on every
 * translation request and the database round trips were the larger part of a small request's
 * cost. Each statement inside takes a fresh snapshot, so the locking argument is the one the
 * statements had when sent one by one: the account's row is locked first, and every total is
 * checked against the latest committed one.
 *
 * A refusal raises SQLSTATE QU402, which undoes everything the call wrote; its message names the
 * level that refused (`account` or `key`) and its detail is the words that level had used, read
 * under the lock that refused. A reference charged before returns that charge (`replayed`),
 * charging nothing.
 */
export class ChargeWordsFunction1733600000000 implements MigrationInterface, DeclaresRevertLoss {
  name = 'ChargeWordsFunction1733600000000';
  readonly revertDestroys = [];

  async up(q: QueryRunner): Promise<void> {
    await q.query(`CREATE FUNCTION translation.charge_words(
      p_key uuid, p_account uuid, p_sandbox boolean, p_at timestamptz, p_words bigint, p_cents bigint,
      p_reference text, p_account_limit bigint, p_key_limit bigint)
    RETURNS TABLE (charge_id uuid, charged_key uuid, charged_month text, charged_words bigint, charged_cents bigint, replayed boolean)
    LANGUAGE plpgsql AS $fn$
    DECLARE
      v_at timestamptz := COALESCE(p_at, now());
      v_month char(7) := to_char(COALESCE(p_at, now()) AT TIME ZONE 'UTC', 'YYYY-MM');
      v_id uuid;
      v_account_ok boolean;
      v_key_ok boolean;
    BEGIN
      -- A concurrent charge with the same reference makes this insert wait for its outcome.
      INSERT INTO translation.quota_charges AS c (key_id, month, words, cost_cents, reference, created_at)
      VALUES (p_key, v_month, p_words, p_cents, p_reference, v_at)
      ON CONFLICT (reference) DO NOTHING
      RETURNING c.id INTO v_id;
      IF v_id IS NULL THEN
        RETURN QUERY SELECT c.id, c.key_id, c.month::text, c.words, c.cost_cents, true
          FROM translation.quota_charges c WHERE c.reference = p_reference;
        RETURN;
      END IF;

      WITH account AS (
        INSERT INTO translation.account_usage AS au (account_id, sandbox, month, words, cost_cents)
        SELECT p_account, p_sandbox, v_month, p_words, p_cents
        WHERE p_account_limit IS NULL OR p_words <= p_account_limit
        ON CONFLICT (account_id, sandbox, month) DO UPDATE
          SET words = au.words + EXCLUDED.words, cost_cents = au.cost_cents + EXCLUDED.cost_cents
          WHERE p_account_limit IS NULL OR au.words + EXCLUDED.words <= p_account_limit
        RETURNING au.words
      ), key AS (
        INSERT INTO translation.key_usage AS ku (key_id, month, words, cost_cents)
        SELECT p_key, v_month, p_words, p_cents
        WHERE EXISTS (SELECT 1 FROM account) AND (p_key_limit IS NULL OR p_words <= p_key_limit)
        ON CONFLICT (key_id, month) DO UPDATE
          SET words = ku.words + EXCLUDED.words, cost_cents = ku.cost_cents + EXCLUDED.cost_cents
          WHERE p_key_limit IS NULL OR ku.words + EXCLUDED.words <= p_key_limit
        RETURNING ku.words
      )
      SELECT EXISTS (SELECT 1 FROM account), EXISTS (SELECT 1 FROM key) INTO v_account_ok, v_key_ok;

      IF NOT v_account_ok THEN
        RAISE EXCEPTION USING ERRCODE = 'QU402', MESSAGE = 'account', DETAIL = COALESCE((SELECT au.words FROM translation.account_usage au
          WHERE au.account_id = p_account AND au.sandbox = p_sandbox AND au.month = v_month), 0)::text;
      END IF;
      IF NOT v_key_ok THEN
        RAISE EXCEPTION USING ERRCODE = 'QU402', MESSAGE = 'key', DETAIL = COALESCE((SELECT ku.words FROM translation.key_usage ku
          WHERE ku.key_id = p_key AND ku.month = v_month), 0)::text;
      END IF;

      INSERT INTO translation.key_daily_usage AS d (key_id, day, words, cost_cents)
      VALUES (p_key, (v_at AT TIME ZONE 'UTC')::date, p_words, p_cents)
      ON CONFLICT (key_id, day) DO UPDATE SET words = d.words + EXCLUDED.words, cost_cents = d.cost_cents + EXCLUDED.cost_cents;

      RETURN QUERY SELECT v_id, p_key, v_month::text, p_words, p_cents, false;
    END
    $fn$`);
  }

  async down(q: QueryRunner): Promise<void> {
    await q.query(`DROP FUNCTION translation.charge_words(uuid, uuid, boolean, timestamptz, bigint, bigint, text, bigint, bigint)`);
  }
}
