import { MigrationInterface, QueryRunner } from 'typeorm';
import type { DeclaresRevertLoss } from '../../migration-runner';

/** When an access token last authenticated a request, to the minute; null: never, or not since this column came. */
export class TokenLastUse1734300000000 implements MigrationInterface, DeclaresRevertLoss {
  name = 'TokenLastUse1734300000000';
  readonly revertDestroys = ['image.access_tokens.last_used_at'];

  async up(q: QueryRunner): Promise<void> {
    await q.query(`ALTER TABLE image.access_tokens ADD COLUMN last_used_at timestamptz`);
  }

  async down(q: QueryRunner): Promise<void> {
    await q.query(`ALTER TABLE image.access_tokens DROP COLUMN last_used_at`);
  }
}
