import { Injectable } from '@nestjs/common';
import { InjectRepository } from '@nestjs/typeorm';
import { ApiError } from '@platform/errors';
import type { FastifyReply } from 'fastify';
import { randomBytes } from 'node:crypto';
import { LessThanOrEqual, MoreThan, Repository } from 'typeorm';
import { hashLinkToken } from '../links/one-time-link';
import type { SessionResponseDto } from '../sessions/dtos/session.dto';
import { SessionResponder } from '../sessions/session-responder.service';
import { SignInThrottleService, WRONG_CODE, type AdmittedSignIn } from '../sessions/sign-in-throttle.service';
import { ConsoleUser } from '../users/console-user.entity';
import type { SecondFactorRequiredResponseDto, SecondFactorSessionResponseDto } from './dtos/second-factor.dto';
import { SecondFactorService, wrongProof, type SecondFactorProof } from './second-factor.service';
import { SignInChallenge } from './sign-in-challenge.entity';

/** Long enough to open the app and type a code, short enough that a leaked challenge is soon worthless. */
export const CHALLENGE_SECONDS = 5 * 60;

const challengeGone = () => new ApiError(401, 'challenge_expired', 'This sign-in has expired or was completed already: sign in with your password again');

/**
 * Sign-in in two steps for users with a second factor: the right password answers a challenge
 * (256 random bits, stored as SHA-256) instead of a session, and the challenge with a code of
 * the user's app or a recovery code opens the session, once, within CHALLENGE_SECONDS. Codes
 * are counted with passwords, per account and per client address.
 */
@Injectable()
export class SecondFactorSignIn {
  constructor(
    @InjectRepository(SignInChallenge) private readonly challenges: Repository<SignInChallenge>,
    private readonly factors: SecondFactorService,
    private readonly throttle: SignInThrottleService,
    private readonly responder: SessionResponder,
  ) {}

  /**
   * What a right password leads to: the session, or for a user with a second factor a challenge.
   * Every way of proving a password (a reset one too) goes through here, so none skips the code.
   */
  async afterPassword(user: ConsoleUser, attempt: AdmittedSignIn, reply: FastifyReply): Promise<SessionResponseDto | SecondFactorRequiredResponseDto> {
    if (!(await this.factors.isActive(user.id))) {
      await attempt.succeeded();
      return this.responder.signIn(user, reply);
    }
    await attempt.refund();
    const token = randomBytes(32).toString('base64url');
    const expiresAt = new Date(Date.now() + CHALLENGE_SECONDS * 1000);
    // The user's ended challenges go now, as ended sessions go at sign-in.
    await this.challenges.delete({ userId: user.id, expiresAt: LessThanOrEqual(new Date()) });
    await this.challenges.insert({ tokenHash: hashLinkToken(token), userId: user.id, expiresAt });
    return { ok: true, second_factor_required: true, challenge: token, expires_at: expiresAt };
  }

  async complete(challenge: string, proof: SecondFactorProof, ip: string, reply: FastifyReply): Promise<SecondFactorSessionResponseDto> {
    const tokenHash = hashLinkToken(challenge);
    const found = await this.challenges.findOneBy({ tokenHash, expiresAt: MoreThan(new Date()) });
    const user = found && (await this.challenges.manager.findOneBy(ConsoleUser, { id: found.userId }));
    if (!user) throw challengeGone();
    const attempt = await this.throttle.admit(user.email, ip, WRONG_CODE);
    // The code is spent and the challenge used up together, or neither: a wrong code leaves the challenge for the next try.
    const spent = await this.challenges.manager.transaction(async (manager) => {
      const spent = await this.factors.spend(manager, user.id, proof);
      if (!spent) return null;
      const used = await manager.delete(SignInChallenge, { tokenHash, expiresAt: MoreThan(new Date()) });
      if (!used.affected) throw challengeGone();
      return spent;
    });
    if (!spent) throw new ApiError(401, 'invalid_code', await attempt.refusal(wrongProof(proof)));
    await attempt.succeeded();
    const session = await this.responder.signIn(user, reply);
    return { ...session, ...(spent.recoveryCodesLeft !== undefined && { recovery_codes_left: spent.recoveryCodesLeft }) };
  }
}
