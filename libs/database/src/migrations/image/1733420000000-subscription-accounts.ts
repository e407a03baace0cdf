import { MigrationInterface, QueryRunner } from 'typeorm';
import type { DeclaresRevertLoss } from '../../migration-runner';

/**
 * A subscription may belong to a customer account of the translation product (the id of
 * translation.accounts), so that the account's console shows its tokens and conversions. No
 * foreign key: each product may keep its schema in a database of its own, so the operator's
 * command that sets it is what vouches for the id.
 */
export class SubscriptionAccounts1733420000000 implements MigrationInterface, DeclaresRevertLoss {
  name = 'SubscriptionAccounts1733420000000';
  readonly revertDestroys = ['image.subscriptions.account_id'];

  async up(q: QueryRunner): Promise<void> {
    await q.query(`ALTER TABLE image.subscriptions ADD COLUMN account_id uuid`);
    await q.query(`CREATE INDEX subscriptions_account_idx ON image.subscriptions (account_id, created_at, id) WHERE account_id IS NOT NULL`);
  }

  async down(q: QueryRunner): Promise<void> {
    await q.query(`ALTER TABLE image.subscriptions DROP COLUMN account_id`);
  }
}
