import { Injectable } from '@nestjs/common';
import { InjectRepository } from '@nestjs/typeorm';
import { ApiError } from '@platform/errors';
import { EntityManager, IsNull, Not, Repository } from 'typeorm';
import type { SignedIn } from '../sessions/sessions.service';
import { SignInThrottleService, WRONG_CODE } from '../sessions/sign-in-throttle.service';
import { ConsoleUser } from '../users/console-user.entity';
import { verifyPassword } from '../users/password-hash';
import { ConsoleRecoveryCode } from './console-recovery-code.entity';
import { ConsoleSecondFactor } from './console-second-factor.entity';
import type { SecondFactorProofDto, SecondFactorState } from './dtos/second-factor.dto';
import { hashRecoveryCode, newRecoveryCodes } from './recovery-codes';
import { acceptedStep, newTotpSecret, otpauthUri } from './totp';

export interface SecondFactorStatus {
  state: SecondFactorState;
  enabledAt: Date | null;
  recoveryCodesLeft: number;
}

/** A code or a recovery code, exactly one of them. */
export type SecondFactorProof = { code: string } | { recoveryCode: string };

/** What spending a proof left: after a recovery code, how many are left. */
export interface Spent {
  recoveryCodesLeft?: number;
}

export function proofOf({ code, recovery_code }: SecondFactorProofDto): SecondFactorProof {
  if ((code === undefined) === (recovery_code === undefined)) throw ApiError.invalidParameter('Send either code (from the authenticator app) or recovery_code, not both');
  return code !== undefined ? { code } : { recoveryCode: recovery_code! };
}

const fieldOf = (proof: SecondFactorProof) => ('code' in proof ? 'code' : 'recovery_code');
/** The first sentence of the answer to a wrong proof; sign-in's warning may follow. */
export const wrongProof = (proof: SecondFactorProof) => ('code' in proof ? WRONG_CODE.wrong : 'Wrong recovery code, or one already used');
const notOn = () => ApiError.invalidParameter('Two-step sign-in is not on for your user');

/**
 * A user's TOTP second factor and recovery codes. The secret is answered once, when set-up
 * starts, and never again; a code is accepted once (its time step is kept), a recovery code is
 * spent once. Wrong codes and passwords of a signed-in user count against sign-in's limits too,
 * so a stolen session cannot guess its way to new recovery codes or switch the factor off.
 */
@Injectable()
export class SecondFactorService {
  constructor(
    @InjectRepository(ConsoleSecondFactor) private readonly factors: Repository<ConsoleSecondFactor>,
    private readonly throttle: SignInThrottleService,
  ) {}

  async status(userId: string): Promise<SecondFactorStatus> {
    const factor = await this.factors.findOneBy({ userId });
    if (!factor) return { state: 'off', enabledAt: null, recoveryCodesLeft: 0 };
    if (!factor.confirmedAt) return { state: 'pending', enabledAt: null, recoveryCodesLeft: 0 };
    return { state: 'active', enabledAt: factor.confirmedAt, recoveryCodesLeft: await codesLeft(this.factors.manager, userId) };
  }

  isActive(userId: string): Promise<boolean> {
    return this.factors.existsBy({ userId, confirmedAt: Not(IsNull()) });
  }

  /** A new secret, pending until a code confirms it; one pending before is replaced. */
  async start(user: Pick<SignedIn, 'userId' | 'email'>): Promise<{ secret: string; uri: string }> {
    const secret = newTotpSecret();
    const rows: unknown[] = await this.factors.query(
      `INSERT INTO translation.console_second_factors (user_id, secret) VALUES ($1, $2)
       ON CONFLICT (user_id) DO UPDATE SET secret = EXCLUDED.secret, created_at = now(), last_time_step = NULL
       WHERE console_second_factors.confirmed_at IS NULL
       RETURNING user_id`,
      [user.userId, secret],
    );
    if (!rows.length) throw ApiError.invalidParameter('Two-step sign-in is already on: turn it off first to set it up with another app');
    return { secret, uri: otpauthUri(secret, user.email) };
  }

  /** Turns the pending secret on with a code of it; answers the recovery codes, this once. */
  confirm(userId: string, code: string): Promise<string[]> {
    return this.factors.manager.transaction(async (manager) => {
      const factor = await manager.findOne(ConsoleSecondFactor, { where: { userId }, lock: { mode: 'pessimistic_write' } });
      if (!factor) throw ApiError.invalidParameter('Start setting up two-step sign-in first: there is no secret to confirm');
      if (factor.confirmedAt) throw ApiError.invalidParameter('Two-step sign-in is already on');
      const step = await acceptedStep(factor.secret, code, null);
      if (step === null) throw ApiError.invalidParameter('code: Wrong code: check that the app shows the entry just added and that the phone’s time is right');
      await manager.update(ConsoleSecondFactor, { userId }, { confirmedAt: new Date(), lastTimeStep: String(step) });
      return replaceRecoveryCodes(manager, userId);
    });
  }

  /** New recovery codes for a code of the app; the earlier ones stop working. */
  regenerate(user: SignedIn, ip: string, code: string): Promise<string[]> {
    return this.proven(user, ip, { code }, undefined, (manager) => replaceRecoveryCodes(manager, user.userId));
  }

  /** Turns it off for the password and a code or recovery code; the secret and every recovery code go. */
  disable(user: SignedIn, ip: string, proof: SecondFactorProof, password: string): Promise<void> {
    return this.proven(user, ip, proof, password, async (manager) => {
      await manager.delete(ConsoleRecoveryCode, { userId: user.userId });
      await manager.delete(ConsoleSecondFactor, { userId: user.userId });
    });
  }

  /**
   * Spends a code (its time step) or a recovery code of the user's active second factor, in the
   * caller's transaction; null when it is wrong, used already or of a step before the last one
   * used. The factor's row stays locked until the transaction ends, so two requests cannot
   * spend one code.
   */
  async spend(manager: EntityManager, userId: string, proof: SecondFactorProof): Promise<Spent | null> {
    const factor = await manager.findOne(ConsoleSecondFactor, { where: { userId, confirmedAt: Not(IsNull()) }, lock: { mode: 'pessimistic_write' } });
    if (!factor) return null;
    if ('code' in proof) {
      const step = await acceptedStep(factor.secret, proof.code, factor.lastTimeStep === null ? null : Number(factor.lastTimeStep));
      if (step === null) return null;
      await manager.update(ConsoleSecondFactor, { userId }, { lastTimeStep: String(step) });
      return {};
    }
    const spent = await manager.update(ConsoleRecoveryCode, { userId, codeHash: hashRecoveryCode(userId, proof.recoveryCode), usedAt: IsNull() }, { usedAt: new Date() });
    return spent.affected ? { recoveryCodesLeft: await codesLeft(manager, userId) } : null;
  }

  /**
   * `work` in one transaction with spending the proof, once the password (when asked for) and the
   * proof are right. Each check counts as a failed sign-in until it succeeds; a wrong one is
   * answered 422 under its field, with sign-in's warning as the lock nears.
   */
  private async proven<T>(user: SignedIn, ip: string, proof: SecondFactorProof, password: string | undefined, work: (manager: EntityManager) => Promise<T>): Promise<T> {
    if (!(await this.isActive(user.userId))) throw notOn();
    const attempt = await this.throttle.admit(user.email, ip, WRONG_CODE);
    if (password !== undefined) {
      const { passwordHash } = await this.factors.manager.findOneByOrFail(ConsoleUser, { id: user.userId });
      if (!(await verifyPassword(password, passwordHash))) throw ApiError.invalidParameter(`password: ${await attempt.refusal('Wrong password')}`);
    }
    const done = await this.factors.manager.transaction(async (manager) => ((await this.spend(manager, user.userId, proof)) ? { result: await work(manager) } : null));
    if (!done) throw ApiError.invalidParameter(`${fieldOf(proof)}: ${await attempt.refusal(wrongProof(proof))}`);
    await attempt.refund();
    return done.result;
  }
}

const codesLeft = (manager: EntityManager, userId: string) => manager.countBy(ConsoleRecoveryCode, { userId, usedAt: IsNull() });

async function replaceRecoveryCodes(manager: EntityManager, userId: string): Promise<string[]> {
  const codes = newRecoveryCodes();
  await manager.delete(ConsoleRecoveryCode, { userId });
  await manager.insert(
    ConsoleRecoveryCode,
    codes.map((code) => ({ userId, codeHash: hashRecoveryCode(userId, code) })),
  );
  return codes;
}
