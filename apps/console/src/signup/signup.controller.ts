import { Body, Controller, HttpCode, Post, Req, Res } from '@nestjs/common';
import {
  ApiConflictResponse,
  ApiCreatedResponse,
  ApiGoneResponse,
  ApiNotFoundResponse,
  ApiOkResponse,
  ApiOperation,
  ApiTags,
  ApiTooManyRequestsResponse,
  ApiUnprocessableEntityResponse,
} from '@nestjs/swagger';
import { KeyViewDto } from '@platform/auth';
import { ApiError, TranslationErrorDto } from '@platform/errors';
import { Public } from '@platform/service-kit';
import type { FastifyReply, FastifyRequest } from 'fastify';
import { ActivationService } from '../activation/activation.service';
import { ConsoleConfig } from '../config/console.config';
import { SessionAuth } from '../sessions/session-auth.decorator';
import { CurrentUser, Roles } from '../sessions/session.guard';
import { SessionResponder } from '../sessions/session-responder.service';
import type { SignedIn } from '../sessions/sessions.service';
import { EmailVerificationService } from './email-verification.service';
import { SignUpDto, SignUpResponseDto, VerificationMailResponseDto, VerifyEmailDto, VerifyEmailResponseDto } from './signup.dto';
import { SignUpService } from './signup.service';
import { SignUpThrottleService } from './signup-throttle.service';

const RATE_LIMITED = { type: TranslationErrorDto, description: 'rate_limited: a limit is reached; the message says which, Retry-After for how long' };

@ApiTags('session')
@Controller('console/api/signup')
export class SignUpController {
  constructor(
    private readonly signups: SignUpService,
    private readonly throttle: SignUpThrottleService,
    private readonly verification: EmailVerificationService,
    private readonly activation: ActivationService,
    private readonly responder: SessionResponder,
    private readonly config: ConsoleConfig,
  ) {}

  @Public()
  @Post()
  @ApiOperation({
    summary: 'Open an account (when CONSOLE_SIGNUP=true)',
    description:
      'Creates a sandbox account with the caller as owner, signs in and mails a confirmation link to the address. The account holds no key until the link is opened ' +
      '(POST /console/api/signup/verify). Sign-ups are limited per client address and day (CONSOLE_SIGNUPS_PER_IP_PER_DAY) and over all addresses per hour ' +
      '(CONSOLE_SIGNUPS_PER_HOUR); every admitted attempt counts.',
  })
  @ApiCreatedResponse({ type: SignUpResponseDto })
  @ApiNotFoundResponse({ type: TranslationErrorDto, description: 'not_found: sign-up is not enabled on this installation' })
  @ApiUnprocessableEntityResponse({ type: TranslationErrorDto, description: 'invalid_request: a field is invalid, the account name is taken, or the address already has a user' })
  @ApiTooManyRequestsResponse(RATE_LIMITED)
  async signUp(@Body() body: SignUpDto, @Req() request: FastifyRequest, @Res({ passthrough: true }) reply: FastifyReply): Promise<SignUpResponseDto> {
    if (!this.config.CONSOLE_SIGNUP) throw ApiError.notFound('Sign-up is not enabled here; ask the operator for an invitation');
    await this.throttle.admit(request.ip);
    const { owner, mailed } = await this.signups.signUp(body.account_name, body.email, body.password);
    return { ...(await this.responder.signIn(owner, reply)), mailed };
  }

  @Public()
  @Post('verify')
  @HttpCode(200)
  @ApiOperation({
    summary: "Confirm a signed-up account's email address with the mailed link",
    description:
      'A link works once and until it expires; a new one replaces the earlier ones. Unless an operator approves sign-ups (CONSOLE_SIGNUP_APPROVAL=manual), ' +
      'the sign-up is then complete and the answer carries the first sandbox key, its secret shown only here. Needs no session.',
  })
  @ApiOkResponse({ type: VerifyEmailResponseDto })
  @ApiNotFoundResponse({ type: TranslationErrorDto, description: 'not_found: no such link (mistyped, or replaced by a newer one)' })
  @ApiConflictResponse({ type: TranslationErrorDto, description: 'link_used: the link was used already' })
  @ApiGoneResponse({ type: TranslationErrorDto, description: 'link_expired: the link has expired; send a new one' })
  async verify(@Body() body: VerifyEmailDto): Promise<VerifyEmailResponseDto> {
    const { account, firstKey } = await this.verification.verify(body.token);
    const first = firstKey ? { key: KeyViewDto.from(firstKey.key), secret: firstKey.secret } : {};
    return { ok: true, account: await this.activation.view(account.id), ...first };
  }

  @Post('verification-mail')
  @HttpCode(200)
  @SessionAuth("forbidden: only the account's owners confirm its address")
  @Roles('owner')
  @ApiOperation({
    summary: 'Mail the confirmation link again (owners of an unconfirmed account)',
    description: 'A new link to the signed-in owner’s address; the earlier links stop working. At most CONSOLE_VERIFICATION_MAILS_PER_DAY per account and day, the first included.',
  })
  @ApiOkResponse({ type: VerificationMailResponseDto })
  @ApiConflictResponse({ type: TranslationErrorDto, description: 'already_verified: the address is confirmed already' })
  @ApiTooManyRequestsResponse(RATE_LIMITED)
  async resend(@CurrentUser() owner: SignedIn): Promise<VerificationMailResponseDto> {
    return { ok: true, mailed: await this.verification.resend(owner.accountId, owner.email) };
  }
}
