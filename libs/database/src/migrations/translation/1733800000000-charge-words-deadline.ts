import { MigrationInterface, QueryRunner } from 'typeorm';
import type { DeclaresRevertLoss } from '../../migration-runner';

/**
 * translation.charge_words with a deadline: a charge that is done after `p_not_after` is undone
 * (SQLSTATE QU408). A server that hangs executes the statements it received meanwhile once it goes
 * on, long after the service gave up waiting and answered 503; without the deadline such a charge
 * would bill a request nobody got an answer to. The check comes last, after every lock was
 * taken, so a charge either happened while its caller still waited or not at all. The charge
 * itself stays in the function of nine arguments, which services of the previous release call.
 */
export class ChargeWordsDeadline1733800000000 implements MigrationInterface, DeclaresRevertLoss {
  name = 'ChargeWordsDeadline1733800000000';
  readonly revertDestroys = [];

  async up(q: QueryRunner): Promise<void> {
    await q.query(`CREATE FUNCTION translation.charge_words(
      p_key uuid, p_account uuid, p_sandbox boolean, p_at timestamptz, p_words bigint, p_cents bigint,
      p_reference text, p_account_limit bigint, p_key_limit bigint, p_not_after timestamptz)
    RETURNS TABLE (charge_id uuid, charged_key uuid, charged_month text, charged_words bigint, charged_cents bigint, replayed boolean)
    LANGUAGE plpgsql AS $fn$
    BEGIN
      RETURN QUERY SELECT * FROM translation.charge_words(p_key, p_account, p_sandbox, p_at, p_words, p_cents, p_reference, p_account_limit, p_key_limit);
      IF p_not_after IS NOT NULL AND clock_timestamp() > p_not_after THEN
        RAISE EXCEPTION USING ERRCODE = 'QU408', MESSAGE = 'the charge came after its deadline and was undone';
      END IF;
    END
    $fn$`);
  }

  async down(q: QueryRunner): Promise<void> {
    await q.query(`DROP FUNCTION translation.charge_words(uuid, uuid, boolean, timestamptz, bigint, bigint, text, bigint, bigint, timestamptz)`);
  }
}
