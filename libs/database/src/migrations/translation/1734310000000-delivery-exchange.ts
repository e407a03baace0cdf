import { MigrationInterface, QueryRunner } from 'typeorm';
import type { DeclaresRevertLoss } from '../../migration-runner';

/**
 * What an attempt sent and what came back, for the delivery log's detail view: the request's
 * headers (the signature is per attempt) and the first bytes of the receiver's answer. Null for
 * attempts recorded before, and for an answer that never came.
 */
export class DeliveryExchange1734310000000 implements MigrationInterface, DeclaresRevertLoss {
  name = 'DeliveryExchange1734310000000';
  readonly revertDestroys = ['translation.webhook_deliveries.request_headers', 'translation.webhook_deliveries.response_excerpt'];

  async up(q: QueryRunner): Promise<void> {
    await q.query(`ALTER TABLE translation.webhook_deliveries ADD COLUMN request_headers jsonb, ADD COLUMN response_excerpt text`);
  }

  async down(q: QueryRunner): Promise<void> {
    await q.query(`ALTER TABLE translation.webhook_deliveries DROP COLUMN request_headers, DROP COLUMN response_excerpt`);
  }
}
