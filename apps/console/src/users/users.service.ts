import { Injectable } from '@nestjs/common';
import { InjectRepository } from '@nestjs/typeorm';
import { ApiError } from '@platform/errors';
import { isUUID } from 'class-validator';
import { EntityManager, Repository } from 'typeorm';
import { assertLanguagesFit, ConsoleReviewers } from '../review/console-reviewers.service';
import { ConsoleUser, type ConsoleRole } from './console-user.entity';

export interface UserChange {
  role?: ConsoleRole;
  languages?: string[];
}

export const normalizeEmail = (email: string) => email.trim().toLowerCase();

const isUniqueViolation = (error: unknown) => (error as { code?: string })?.code === '23505';

/** Users of an account; an account always keeps at least one owner. */
@Injectable()
export class UsersService {
  constructor(
    @InjectRepository(ConsoleUser) private readonly users: Repository<ConsoleUser>,
    private readonly reviewers: ConsoleReviewers,
  ) {}

  findByEmail(email: string): Promise<ConsoleUser | null> {
    return this.users.findOneBy({ email: normalizeEmail(email) });
  }

  /** Within the caller's transaction; 422 when the address already has a user. */
  async create(manager: EntityManager, user: Pick<ConsoleUser, 'accountId' | 'email' | 'role' | 'passwordHash'>): Promise<ConsoleUser> {
    try {
      return await manager.save(manager.create(ConsoleUser, { ...user, email: normalizeEmail(user.email) }));
    } catch (error) {
      if (isUniqueViolation(error)) throw ApiError.invalidParameter(`email: ${user.email} already has a console user`);
      throw error;
    }
  }

  /** With reviewers' reviewer records. */
  list(accountId: string): Promise<ConsoleUser[]> {
    return this.users.find({ where: { accountId }, relations: { reviewer: true }, order: { createdAt: 'ASC', id: 'ASC' } });
  }

  /** 404 for unknown ids, other accounts' ids and ids that are not UUIDs alike. */
  async get(accountId: string, id: string, manager: EntityManager = this.users.manager): Promise<ConsoleUser> {
    const user = isUUID(id) ? await manager.findOne(ConsoleUser, { where: { accountId, id }, relations: { reviewer: true } }) : null;
    if (!user) throw ApiError.notFound(`User ${id} not found`);
    return user;
  }

  /** A new role, and for a reviewer the languages they review (until they have some, they review nothing). */
  change(accountId: string, id: string, { role: newRole, languages }: UserChange): Promise<ConsoleUser> {
    if (!newRole && !languages) throw ApiError.invalidParameter('Send the new role, languages (for a reviewer) or both');
    return this.keepingAnOwner(accountId, id, async (manager, user) => {
      const role = newRole ?? user.role;
      const reviewed = assertLanguagesFit(role, languages);
      if (user.role === 'owner' && role !== 'owner') await assertAnotherOwner(manager, user);
      if (role === 'reviewer') user.reviewer = await this.reviewers.enlist(manager, user, reviewed);
      await manager.update(ConsoleUser, { id: user.id }, { role });
      return Object.assign(user, { role });
    });
  }

  /** The user's sessions end with it (the rows cascade), and so does their reviewer record. */
  remove(accountId: string, id: string): Promise<ConsoleUser> {
    return this.keepingAnOwner(accountId, id, async (manager, user) => {
      if (user.role === 'owner') await assertAnotherOwner(manager, user);
      await this.reviewers.dismiss(manager, user);
      await manager.delete(ConsoleUser, { id: user.id });
      return user;
    });
  }

  /** The account row is locked meanwhile, so two owners cannot demote each other at once. */
  private keepingAnOwner<T>(accountId: string, id: string, work: (manager: EntityManager, user: ConsoleUser) => Promise<T>): Promise<T> {
    return this.users.manager.transaction(async (manager) => {
      await manager.query('SELECT 1 FROM translation.accounts WHERE id = $1 FOR NO KEY UPDATE', [accountId]);
      return work(manager, await this.get(accountId, id, manager));
    });
  }
}

async function assertAnotherOwner(manager: EntityManager, user: ConsoleUser): Promise<void> {
  const owners = await manager.countBy(ConsoleUser, { accountId: user.accountId, role: 'owner' });
  if (owners <= 1) throw ApiError.invalidParameter('An account keeps at least one owner: make another user owner first');
}
