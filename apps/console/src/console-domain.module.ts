import { DynamicModule, Module } from '@nestjs/common';
import { TypeOrmModule } from '@nestjs/typeorm';
import { ReviewersModule } from '@platform/review';
import { ActivationRequest } from './activation/activation-request.entity';
import { ActivationService } from './activation/activation.service';
import { ConsoleConfig } from './config/console.config';
import { ConsoleInvitation } from './invitations/console-invitation.entity';
import { InvitationsService } from './invitations/invitations.service';
import { Mailer } from './mail/mailer.service';
import { ConsoleReviewers } from './review/console-reviewers.service';
import { ConsoleUser } from './users/console-user.entity';
import { UsersService } from './users/users.service';

/**
 * Users (reviewers linked to their reviewer records), invitations, the mailer and activation
 * requests: what the session API and the operator commands share. Needs AuthModule and a TypeORM
 * root of the translation schema in the importing module.
 */
@Module({})
export class ConsoleDomainModule {
  static forRoot(config: ConsoleConfig): DynamicModule {
    return {
      module: ConsoleDomainModule,
      global: true,
      imports: [TypeOrmModule.forFeature([ConsoleUser, ConsoleInvitation, ActivationRequest]), ReviewersModule],
      providers: [{ provide: ConsoleConfig, useValue: config }, Mailer, UsersService, InvitationsService, ActivationService, ConsoleReviewers],
      exports: [ConsoleConfig, Mailer, UsersService, InvitationsService, ActivationService, ConsoleReviewers],
    };
  }
}
