import { Injectable } from '@nestjs/common';
import { InjectRepository } from '@nestjs/typeorm';
import { createHash, randomBytes } from 'node:crypto';
import { EntityManager, Repository } from 'typeorm';
import { ConsoleConfig } from '../config/console.config';
import type { ConsoleRole } from '../users/console-user.entity';
import { ConsoleSession } from './console-session.entity';

/** Who a session belongs to, as every guarded request sees it. */
export interface SignedIn {
  userId: string;
  accountId: string;
  email: string;
  role: ConsoleRole;
  tokenHash: string;
  csrfToken: string;
}

/** The cookie's token exists only here and in the browser. */
export interface OpenedSession {
  token: string;
  csrfToken: string;
}

const hashToken = (token: string) => createHash('sha256').update(token).digest('hex');
const randomToken = () => randomBytes(32).toString('base64url');
const WELL_FORMED = /^[A-Za-z0-9_-]{43}$/;

/**
 * Sessions live in Postgres, so that revoking one (sign-out, sign-out everywhere, a removed user)
 * takes effect on every replica with the next request. A session ends after
 * CONSOLE_SESSION_IDLE_SECONDS without use or CONSOLE_SESSION_ABSOLUTE_SECONDS after sign-in.
 */
@Injectable()
export class SessionsService {
  constructor(
    @InjectRepository(ConsoleSession) private readonly sessions: Repository<ConsoleSession>,
    private readonly config: ConsoleConfig,
  ) {}

  async open(userId: string): Promise<OpenedSession> {
    const token = randomToken();
    const csrfToken = randomToken();
    // Ended sessions of this user go now; a user's sign-in is the moment their rows are touched anyway.
    await this.sessions.query(
      `DELETE FROM translation.console_sessions WHERE user_id = $1 AND (last_seen_at <= now() - make_interval(secs => $2) OR created_at <= now() - make_interval(secs => $3))`,
      [userId, this.config.CONSOLE_SESSION_IDLE_SECONDS, this.config.CONSOLE_SESSION_ABSOLUTE_SECONDS],
    );
    await this.sessions.insert({ tokenHash: hashToken(token), userId, csrfToken, lastSeenAt: new Date() });
    return { token, csrfToken };
  }

  /** The session of a cookie token, touched as used now; null when unknown, revoked or ended. */
  async resume(token: string): Promise<SignedIn | null> {
    if (!WELL_FORMED.test(token)) return null;
    const [rows] = await this.sessions.query(
      `UPDATE translation.console_sessions s SET last_seen_at = now()
       FROM translation.console_users u
       WHERE s.token_hash = $1 AND u.id = s.user_id
         AND s.last_seen_at > now() - make_interval(secs => $2) AND s.created_at > now() - make_interval(secs => $3)
       RETURNING u.id AS user_id, u.account_id, u.email, u.role, s.token_hash, s.csrf_token`,
      [hashToken(token), this.config.CONSOLE_SESSION_IDLE_SECONDS, this.config.CONSOLE_SESSION_ABSOLUTE_SECONDS],
    );
    const row = (rows as Record<string, string>[])[0];
    if (!row) return null;
    return { userId: row.user_id, accountId: row.account_id, email: row.email, role: row.role as ConsoleRole, tokenHash: row.token_hash, csrfToken: row.csrf_token };
  }

  async close(session: SignedIn): Promise<void> {
    await this.sessions.delete({ tokenHash: session.tokenHash });
  }

  /** Every session of the user, on every browser (within the caller's transaction, if given); returns how many there were. */
  async closeAll(userId: string, manager: EntityManager = this.sessions.manager): Promise<number> {
    return (await manager.delete(ConsoleSession, { userId })).affected ?? 0;
  }
}
