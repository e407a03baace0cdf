import { MigrationInterface, QueryRunner } from 'typeorm';
import type { DeclaresRevertLoss } from '../../migration-runner';

/**
 * Rolling a key: the secret it had before its last regeneration and until when that secret is
 * still accepted (null: refused from the regeneration on), and when the key was last used (to
 * the minute). Keys regenerated before have no previous secret, as they had none then either.
 */
export class KeyRolling1734300000000 implements MigrationInterface, DeclaresRevertLoss {
  name = 'KeyRolling1734300000000';
  readonly revertDestroys = ['translation.api_keys.previous_key_hash', 'translation.api_keys.previous_key_expires_at', 'translation.api_keys.last_used_at'];

  async up(q: QueryRunner): Promise<void> {
    await q.query(`ALTER TABLE translation.api_keys ADD COLUMN previous_key_hash text, ADD COLUMN previous_key_expires_at timestamptz, ADD COLUMN last_used_at timestamptz`);
    await q.query(`CREATE UNIQUE INDEX api_keys_previous_key_hash_idx ON translation.api_keys (previous_key_hash) WHERE previous_key_hash IS NOT NULL`);
  }

  async down(q: QueryRunner): Promise<void> {
    await q.query(`DROP INDEX translation.api_keys_previous_key_hash_idx`);
    await q.query(`ALTER TABLE translation.api_keys DROP COLUMN previous_key_hash, DROP COLUMN previous_key_expires_at, DROP COLUMN last_used_at`);
  }
}
