import { Body, Controller, Get, HttpCode, Post, Req } from '@nestjs/common';
import { ApiCreatedResponse, ApiOkResponse, ApiOperation, ApiTags, ApiTooManyRequestsResponse, ApiUnprocessableEntityResponse } from '@nestjs/swagger';
import { TranslationErrorDto } from '@platform/errors';
import type { FastifyRequest } from 'fastify';
import { OkResponseDto } from '../sessions/dtos/session.dto';
import { SessionAuth } from '../sessions/session-auth.decorator';
import { CurrentUser } from '../sessions/session.guard';
import type { SignedIn } from '../sessions/sessions.service';
import { DisableSecondFactorDto, EnrolmentResponseDto, RecoveryCodesResponseDto, SecondFactorCodeDto, SecondFactorStatusResponseDto } from './dtos/second-factor.dto';
import { proofOf, SecondFactorService } from './second-factor.service';

const LOCKED = { type: TranslationErrorDto, description: 'rate_limited: wrong passwords and codes count against sign-in, which is locked after too many; the message says for how long' };

/** The signed-in user's own two-step sign-in, whatever their role. */
@ApiTags('session')
@SessionAuth()
@Controller('console/api/second-factor')
export class SecondFactorController {
  constructor(private readonly factors: SecondFactorService) {}

  @Get()
  @ApiOperation({ summary: 'Whether two-step sign-in is on for the signed-in user, and how many recovery codes are left' })
  @ApiOkResponse({ type: SecondFactorStatusResponseDto })
  async status(@CurrentUser() user: SignedIn): Promise<SecondFactorStatusResponseDto> {
    const { state, enabledAt, recoveryCodesLeft } = await this.factors.status(user.userId);
    return { ok: true, state, enabled_at: enabledAt, recovery_codes_left: recoveryCodesLeft };
  }

  @Post('enrolment')
  @ApiOperation({
    summary: 'Start setting up two-step sign-in',
    description: 'A new secret for an authenticator app, as an otpauth:// URI and in base32, answered this once; it is pending (sign-in does not ask for it) until confirmed. Starting again replaces a pending one.',
  })
  @ApiCreatedResponse({ type: EnrolmentResponseDto })
  @ApiUnprocessableEntityResponse({ type: TranslationErrorDto, description: 'invalid_request: two-step sign-in is on already' })
  async start(@CurrentUser() user: SignedIn): Promise<EnrolmentResponseDto> {
    const { secret, uri } = await this.factors.start(user);
    return { ok: true, secret, otpauth_uri: uri };
  }

  @Post('enrolment/confirm')
  @HttpCode(200)
  @ApiOperation({
    summary: 'Turn two-step sign-in on with a first code',
    description: 'From now on, sign-in asks for a code after the password. Answers ten recovery codes this once; only their hashes are kept.',
  })
  @ApiOkResponse({ type: RecoveryCodesResponseDto })
  @ApiUnprocessableEntityResponse({ type: TranslationErrorDto, description: 'invalid_request: a wrong code (the message starts with `code:`), nothing pending, or on already' })
  async confirm(@CurrentUser() user: SignedIn, @Body() body: SecondFactorCodeDto): Promise<RecoveryCodesResponseDto> {
    return { ok: true, recovery_codes: await this.factors.confirm(user.userId, body.code) };
  }

  @Post('recovery-codes')
  @HttpCode(200)
  @ApiOperation({ summary: 'New recovery codes, for a code of the app', description: 'The earlier recovery codes stop working. Answers the new ones this once.' })
  @ApiOkResponse({ type: RecoveryCodesResponseDto })
  @ApiUnprocessableEntityResponse({ type: TranslationErrorDto, description: 'invalid_request: a wrong or used code (the message starts with `code:`), or two-step sign-in is not on' })
  @ApiTooManyRequestsResponse(LOCKED)
  async regenerate(@CurrentUser() user: SignedIn, @Req() request: FastifyRequest, @Body() body: SecondFactorCodeDto): Promise<RecoveryCodesResponseDto> {
    return { ok: true, recovery_codes: await this.factors.regenerate(user, request.ip, body.code) };
  }

  @Post('disable')
  @HttpCode(200)
  @ApiOperation({ summary: 'Turn two-step sign-in off', description: 'Needs the current password and a code of the app or a recovery code. The secret and the recovery codes are deleted.' })
  @ApiOkResponse({ type: OkResponseDto })
  @ApiUnprocessableEntityResponse({
    type: TranslationErrorDto,
    description: 'invalid_request: a wrong password (the message starts with `password:`), a wrong or used code (`code:` or `recovery_code:`), neither or both of them, or two-step sign-in is not on',
  })
  @ApiTooManyRequestsResponse(LOCKED)
  async disable(@CurrentUser() user: SignedIn, @Req() request: FastifyRequest, @Body() body: DisableSecondFactorDto): Promise<OkResponseDto> {
    await this.factors.disable(user, request.ip, proofOf(body), body.password);
    return { ok: true };
  }
}
