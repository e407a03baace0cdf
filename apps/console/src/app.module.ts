import { DynamicModule, Module } from '@nestjs/common';
import { APP_GUARD } from '@nestjs/core';
import { TypeOrmModule } from '@nestjs/typeorm';
import { AuthModule } from '@platform/auth';
import { DatabaseModule, translationDomain } from '@platform/database';
import { ReviewModule } from '@platform/review';
import { HealthModule, RedisModule } from '@platform/service-kit';
import { ActivationController } from './activation/activation.controller';
import { ConsoleDomainModule } from './console-domain.module';
import { CustomerAreaModule } from './customer-area.module';
import { ConsoleConfig } from './config/console.config';
import { ImagesModule } from './images/images.module';
import { InvitationsController } from './invitations/invitations.controller';
import { ConsoleKeysController } from './keys/console-keys.controller';
import { PasswordReset } from './password-resets/password-reset.entity';
import { PasswordResetThrottleService } from './password-resets/password-reset-throttle.service';
import { PasswordResetsController } from './password-resets/password-resets.controller';
import { PasswordResetsService } from './password-resets/password-resets.service';
import { ReviewPoolController } from './review-pool/review-pool.controller';
import { ReviewWorkspaceController } from './review/review-workspace.controller';
import { ConsoleRecoveryCode } from './second-factor/console-recovery-code.entity';
import { ConsoleSecondFactor } from './second-factor/console-second-factor.entity';
import { SecondFactorSignInController } from './second-factor/second-factor-sign-in.controller';
import { SecondFactorSignIn } from './second-factor/second-factor-sign-in.service';
import { SecondFactorController } from './second-factor/second-factor.controller';
import { SecondFactorService } from './second-factor/second-factor.service';
import { SignInChallenge } from './second-factor/sign-in-challenge.entity';
import { ConsoleSession } from './sessions/console-session.entity';
import { SessionResponder } from './sessions/session-responder.service';
import { SessionGuard } from './sessions/session.guard';
import { SessionsController } from './sessions/sessions.controller';
import { SessionsService } from './sessions/sessions.service';
import { SignInThrottleService } from './sessions/sign-in-throttle.service';
import { EmailVerification } from './signup/email-verification.entity';
import { EmailVerificationService } from './signup/email-verification.service';
import { SignUpController } from './signup/signup.controller';
import { SignUpService } from './signup/signup.service';
import { SignUpThrottleService } from './signup/signup-throttle.service';
import { UsersController } from './users/users.controller';

/** The console's session API, composed from the libs' services; every route needs a session unless public. */
@Module({})
export class AppModule {
  static forRoot(config: ConsoleConfig): DynamicModule {
    return {
      module: AppModule,
      imports: [
        HealthModule,
        RedisModule.forRoot(config.REDIS_URL, config.REDIS_COMMAND_TIMEOUT_MS),
        DatabaseModule.forRoot(config, translationDomain),
        // The console's callers are people with sessions, never API keys.
        AuthModule.forRoot({ maxKeysPerAccount: config.MAX_KEYS_PER_ACCOUNT }, { apiKeyGuard: false }),
        ConsoleDomainModule.forRoot(config),
        ImagesModule.forRoot(config),
        TypeOrmModule.forFeature([ConsoleSession, EmailVerification, ConsoleSecondFactor, ConsoleRecoveryCode, SignInChallenge, PasswordReset]),
        CustomerAreaModule.forRoot(config),
        // Answering a job's last task completes it (results, webhook), as in translate-api; the customer area provides the quota it refunds through.
        ReviewModule.forRoot({ leaseSeconds: config.REVIEW_LEASE_SECONDS }),
      ],
      controllers: [
        SessionsController,
        SecondFactorSignInController,
        SecondFactorController,
        InvitationsController,
        PasswordResetsController,
        SignUpController,
        UsersController,
        ActivationController,
        ConsoleKeysController,
        ReviewWorkspaceController,
        ReviewPoolController,
      ],
      providers: [
        SessionsService,
        SessionResponder,
        SignInThrottleService,
        SecondFactorService,
        SecondFactorSignIn,
        SignUpService,
        SignUpThrottleService,
        EmailVerificationService,
        PasswordResetsService,
        PasswordResetThrottleService,
        { provide: APP_GUARD, useClass: SessionGuard },
      ],
    };
  }
}
