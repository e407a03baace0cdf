import { Injectable } from '@nestjs/common';
import { InjectRepository } from '@nestjs/typeorm';
import type { AccountMode } from '@platform/contracts';
import { isUUID } from 'class-validator';
import type { EntityManager, Repository } from 'typeorm';
import { DEFAULT_MEMORY_NAME, Memory } from './memory.entity';

/** The memories table; every read and write is within one account and mode. */
@Injectable()
export class MemoryRepository {
  constructor(@InjectRepository(Memory) private readonly memories: Repository<Memory>) {}

  transaction<T>(work: (manager: EntityManager) => Promise<T>): Promise<T> {
    return this.memories.manager.transaction(work);
  }

  list(mode: AccountMode): Promise<Memory[]> {
    return this.memories.find({ where: modeOf(mode), order: { createdAt: 'ASC', id: 'ASC' } });
  }

  /** Null for unknown ids, ids of other accounts or of the other mode, and ids that are not UUIDs alike. */
  find(mode: AccountMode, id: string): Promise<Memory | null> {
    return isUUID(id) ? this.memories.findOneBy({ ...modeOf(mode), id }) : Promise.resolve(null);
  }

  /** The memory, locked until the transaction ends: writes of entries to one memory take turns, so its limit holds. */
  lock(manager: EntityManager, mode: AccountMode, id: string): Promise<Memory | null> {
    return isUUID(id) ? manager.findOne(Memory, { where: { ...modeOf(mode), id }, lock: { mode: 'pessimistic_write' } }) : Promise.resolve(null);
  }

  /**
   * Serialises creations per account, so concurrent ones cannot pass the limit together.
   * NO KEY UPDATE leaves the account free for inserts that merely reference it (keys, jobs).
   */
  async lockAccount(manager: EntityManager, accountId: string): Promise<void> {
    await manager.query('SELECT 1 FROM translation.accounts WHERE id = $1 FOR NO KEY UPDATE', [accountId]);
  }

  count(manager: EntityManager, mode: AccountMode): Promise<number> {
    return manager.countBy(Memory, modeOf(mode));
  }

  create(manager: EntityManager, mode: AccountMode, fields: { name: string; source: string | null }): Promise<Memory> {
    return manager.save(manager.create(Memory, { ...modeOf(mode), ...fields, entryCount: 0 }));
  }

  /** The mode's `default` memory, made now if it does not exist yet (by whoever comes first). */
  async ensureDefault(manager: EntityManager, mode: AccountMode): Promise<Memory> {
    await manager.query(
      `INSERT INTO translation.memories (account_id, sandbox, name) VALUES ($1, $2, $3)
       ON CONFLICT (account_id, sandbox) WHERE name = '${DEFAULT_MEMORY_NAME}' DO NOTHING`,
      [mode.accountId, mode.sandbox, DEFAULT_MEMORY_NAME],
    );
    return manager.findOneByOrFail(Memory, { ...modeOf(mode), name: DEFAULT_MEMORY_NAME });
  }

  /** Deletes the memory and, by cascade in the same statement, every entry of it. */
  async delete(mode: AccountMode, id: string): Promise<boolean> {
    if (!isUUID(id)) return false;
    const { affected } = await this.memories.delete({ ...modeOf(mode), id });
    return Boolean(affected);
  }

  /** Records entries added (or removed, negative) and the time of the change. */
  async changed(manager: EntityManager, id: string, added: number): Promise<void> {
    await manager.query('UPDATE translation.memories SET entry_count = entry_count + $2, updated_at = now() WHERE id = $1', [id, added]);
  }
}

/** Only the two fields: a principal passed as the mode carries more. */
export function modeOf({ accountId, sandbox }: AccountMode): AccountMode {
  return { accountId, sandbox };
}
