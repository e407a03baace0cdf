import { MigrationInterface, QueryRunner } from 'typeorm';
import type { DeclaresRevertLoss } from '../../migration-runner';

/**
 * The W3C trace context (`traceparent`, `tracestate`) of the transaction that wrote an outbox row,
 * so that the job it queues continues that trace. Null for rows written without tracing, and for
 * every row written before.
 */
export class OutboxTraceContext1734100000000 implements MigrationInterface, DeclaresRevertLoss {
  name = 'OutboxTraceContext1734100000000';
  readonly revertDestroys = ['translation.outbox.traceparent', 'translation.outbox.tracestate'];

  async up(q: QueryRunner): Promise<void> {
    await q.query(`ALTER TABLE translation.outbox ADD COLUMN traceparent text, ADD COLUMN tracestate text`);
  }

  async down(q: QueryRunner): Promise<void> {
    await q.query(`ALTER TABLE translation.outbox DROP COLUMN traceparent, DROP COLUMN tracestate`);
  }
}
