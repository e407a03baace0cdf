import { Injectable } from '@nestjs/common';
import type { FastifyReply } from 'fastify';
import { ActivationService } from '../activation/activation.service';
import { ConsoleConfig } from '../config/console.config';
import { UserViewDto } from '../users/dtos/user.dto';
import type { ConsoleUser } from '../users/console-user.entity';
import type { SessionResponseDto } from './dtos/session.dto';
import { clearedSessionCookie, sessionCookie } from './session-cookie';
import { SessionsService, type SignedIn } from './sessions.service';

/** What sign-in, sign-up, an accepted invitation and `me` answer: who, which account, and the CSRF token. */
@Injectable()
export class SessionResponder {
  constructor(
    private readonly sessions: SessionsService,
    private readonly activation: ActivationService,
    private readonly config: ConsoleConfig,
  ) {}

  private get secure(): boolean {
    return this.config.NODE_ENV !== 'development';
  }

  /** Opens a session for the user and sets its cookie on the reply. */
  async signIn(user: ConsoleUser, reply: FastifyReply): Promise<SessionResponseDto> {
    const { token, csrfToken } = await this.sessions.open(user.id);
    reply.header('set-cookie', sessionCookie(token, { secure: this.secure, maxAgeSeconds: this.config.CONSOLE_SESSION_ABSOLUTE_SECONDS }));
    return this.describe({ userId: user.id, accountId: user.accountId, email: user.email, role: user.role }, csrfToken);
  }

  signOut(reply: FastifyReply): void {
    reply.header('set-cookie', clearedSessionCookie({ secure: this.secure }));
  }

  async describe(user: Pick<SignedIn, 'userId' | 'accountId' | 'email' | 'role'>, csrfToken: string): Promise<SessionResponseDto> {
    return {
      ok: true,
      user: UserViewDto.from({ id: user.userId, email: user.email, role: user.role }),
      account: await this.activation.view(user.accountId),
      csrf_token: csrfToken,
    };
  }
}
