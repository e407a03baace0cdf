import { MigrationInterface, QueryRunner } from 'typeorm';
import type { DeclaresRevertLoss } from '../../migration-runner';

/**
 * One webhook endpoint per account, the events published to it and every delivery attempt.
 * The signing secret is stored in clear because each delivery is signed with it.
 */
export class Webhooks1732300000000 implements MigrationInterface, DeclaresRevertLoss {
  name = 'Webhooks1732300000000';
  readonly revertDestroys = ['translation.webhook_deliveries', 'translation.webhook_events', 'translation.webhook_endpoints'];

  async up(q: QueryRunner): Promise<void> {
    await q.query(`CREATE TABLE translation.webhook_endpoints (
      account_id uuid PRIMARY KEY REFERENCES translation.accounts(id) ON DELETE CASCADE,
      url text NOT NULL,
      secret text NOT NULL,
      disabled_at timestamptz,
      disabled_reason text,
      created_at timestamptz NOT NULL DEFAULT now(),
      updated_at timestamptz NOT NULL DEFAULT now()
    )`);
    await q.query(`CREATE TABLE translation.webhook_events (
      id text PRIMARY KEY,
      account_id uuid NOT NULL REFERENCES translation.accounts(id) ON DELETE CASCADE,
      type text NOT NULL,
      payload jsonb NOT NULL,
      created_at timestamptz NOT NULL DEFAULT now()
    )`);
    // Retention deletes by age.
    await q.query(`CREATE INDEX webhook_events_created_idx ON translation.webhook_events (created_at)`);
    // A series is one run of the retry schedule: the first delivery of an event, or a redelivery.
    await q.query(`CREATE TABLE translation.webhook_deliveries (
      id uuid PRIMARY KEY DEFAULT gen_random_uuid(),
      event_id text NOT NULL REFERENCES translation.webhook_events(id) ON DELETE CASCADE,
      account_id uuid NOT NULL REFERENCES translation.accounts(id) ON DELETE CASCADE,
      series text NOT NULL,
      attempt integer NOT NULL CHECK (attempt >= 1),
      url text NOT NULL,
      status_code integer,
      error text,
      duration_ms integer NOT NULL CHECK (duration_ms >= 0),
      created_at timestamptz NOT NULL DEFAULT now(),
      next_attempt_at timestamptz,
      final boolean NOT NULL,
      UNIQUE (event_id, series, attempt)
    )`);
    await q.query(`CREATE INDEX webhook_deliveries_account_idx ON translation.webhook_deliveries (account_id, created_at DESC, id DESC)`);
  }

  async down(q: QueryRunner): Promise<void> {
    await q.query(`DROP TABLE translation.webhook_deliveries`);
    await q.query(`DROP TABLE translation.webhook_events`);
    await q.query(`DROP TABLE translation.webhook_endpoints`);
  }
}
