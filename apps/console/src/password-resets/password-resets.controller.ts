import { Body, Controller, HttpCode, Post, Req } from '@nestjs/common';
import {
  ApiAcceptedResponse,
  ApiConflictResponse,
  ApiGoneResponse,
  ApiNotFoundResponse,
  ApiOkResponse,
  ApiOperation,
  ApiTags,
  ApiTooManyRequestsResponse,
  ApiUnprocessableEntityResponse,
} from '@nestjs/swagger';
import { TranslationErrorDto } from '@platform/errors';
import { Public } from '@platform/service-kit';
import type { FastifyRequest } from 'fastify';
import { ConsoleConfig } from '../config/console.config';
import { EmailField } from '../users/dtos/user.dto';
import { normalizeEmail } from '../users/users.service';
import { CompletePasswordResetDto, PasswordResetDoneDto, PasswordResetLinkDto, PasswordResetRequestedDto, ResetTokenDto } from './dtos/password-reset.dto';
import { PasswordResetThrottleService } from './password-reset-throttle.service';
import { PasswordResetsService } from './password-resets.service';

const UNKNOWN_LINK = { type: TranslationErrorDto, description: 'not_found: no such link (mistyped, or replaced by a newer one)' };
const USED_LINK = { type: TranslationErrorDto, description: 'link_used: the link was used already' };
const EXPIRED_LINK = { type: TranslationErrorDto, description: 'link_expired: the link has expired; ask for a new one' };

@ApiTags('session')
@Controller('console/api/password-resets')
export class PasswordResetsController {
  constructor(
    private readonly resets: PasswordResetsService,
    private readonly throttle: PasswordResetThrottleService,
    private readonly config: ConsoleConfig,
  ) {}

  @Public()
  @Post()
  @HttpCode(202)
  @ApiOperation({
    summary: 'Ask for a password reset link by mail',
    description:
      'Answers the same whether or not the address has a user, and before anything is looked up; the link is mailed afterwards, to a user only, and only when the ' +
      'console has a mail server (SMTP_URL). The link works once, for CONSOLE_PASSWORD_RESET_TTL_SECONDS (an hour), and replaces the earlier links of the user. ' +
      'Limited per email address (CONSOLE_PASSWORD_RESETS_PER_EMAIL_PER_HOUR) and per client address (CONSOLE_PASSWORD_RESETS_PER_IP_PER_HOUR).',
  })
  @ApiAcceptedResponse({ type: PasswordResetRequestedDto })
  @ApiUnprocessableEntityResponse({ type: TranslationErrorDto, description: 'invalid_request: the email address is missing or not one' })
  @ApiTooManyRequestsResponse({ type: TranslationErrorDto, description: 'rate_limited: a limit is reached; the message says which, Retry-After for how long' })
  async request(@Body() body: EmailField, @Req() request: FastifyRequest): Promise<PasswordResetRequestedDto> {
    const email = normalizeEmail(body.email);
    await this.throttle.admit(email, request.ip);
    this.resets.request(email);
    return { ok: true, link_valid_minutes: Math.round(this.config.CONSOLE_PASSWORD_RESET_TTL_SECONDS / 60) };
  }

  @Public()
  @Post('check')
  @HttpCode(200)
  @ApiOperation({
    summary: 'Whether a reset link can still be used',
    description: 'For the page the link opens, before a password is typed: the user it is for and until when it works. Uses nothing up.',
  })
  @ApiOkResponse({ type: PasswordResetLinkDto })
  @ApiNotFoundResponse(UNKNOWN_LINK)
  @ApiConflictResponse(USED_LINK)
  @ApiGoneResponse(EXPIRED_LINK)
  async check(@Body() body: ResetTokenDto): Promise<PasswordResetLinkDto> {
    const { email, expiresAt } = await this.resets.check(body.token);
    return { ok: true, email, expires_at: expiresAt };
  }

  @Public()
  @Post('complete')
  @HttpCode(200)
  @ApiOperation({
    summary: 'Set a new password with a reset link',
    description: 'Uses the link, sets the password and ends every session of the user. Signs nobody in: sign in with the new password afterwards.',
  })
  @ApiOkResponse({ type: PasswordResetDoneDto })
  @ApiNotFoundResponse(UNKNOWN_LINK)
  @ApiConflictResponse(USED_LINK)
  @ApiGoneResponse(EXPIRED_LINK)
  @ApiUnprocessableEntityResponse({ type: TranslationErrorDto, description: 'invalid_request: the password is too short or too long' })
  async complete(@Body() body: CompletePasswordResetDto): Promise<PasswordResetDoneDto> {
    return { ok: true, sessions_closed: await this.resets.complete(body.token, body.password) };
  }
}
