import { Body, Controller, Delete, Get, HttpCode, Post, Req, Res } from '@nestjs/common';
import { ApiExtraModels, ApiOkResponse, ApiOperation, ApiTags, ApiTooManyRequestsResponse, ApiUnauthorizedResponse, getSchemaPath } from '@nestjs/swagger';
import { ApiError, TranslationErrorDto } from '@platform/errors';
import { Public } from '@platform/service-kit';
import type { FastifyReply, FastifyRequest } from 'fastify';
import { SecondFactorRequiredResponseDto } from '../second-factor/dtos/second-factor.dto';
import { SecondFactorSignIn } from '../second-factor/second-factor-sign-in.service';
import { UNUSABLE_PASSWORD_HASH, verifyPassword } from '../users/password-hash';
import { normalizeEmail, UsersService } from '../users/users.service';
import { OkResponseDto, SessionResponseDto, SignedOutEverywhereResponseDto, SignInDto } from './dtos/session.dto';
import { SessionResponder } from './session-responder.service';
import { CurrentUser } from './session.guard';
import { SessionsService, type SignedIn } from './sessions.service';
import { SignInThrottleService } from './sign-in-throttle.service';
import { SessionAuth } from './session-auth.decorator';

@ApiTags('session')
@Controller('console/api')
export class SessionsController {
  constructor(
    private readonly users: UsersService,
    private readonly sessions: SessionsService,
    private readonly responder: SessionResponder,
    private readonly throttle: SignInThrottleService,
    private readonly secondFactor: SecondFactorSignIn,
  ) {}

  @Public()
  @Post('session')
  @HttpCode(200)
  @ApiOperation({
    summary: 'Sign in',
    description: 'Sets the HttpOnly session cookie and answers the CSRF token of the new session. Every attempt is counted per email address and per client address before the password is checked, and given back when it was right.',
  })
  @ApiExtraModels(SecondFactorRequiredResponseDto)
  @ApiOkResponse({
    description: 'The session; or, for a user with two-step sign-in, no session yet but a challenge to complete with a code (POST /console/api/session/second-factor)',
    schema: { oneOf: [{ $ref: getSchemaPath(SessionResponseDto) }, { $ref: getSchemaPath(SecondFactorRequiredResponseDto) }] },
  })
  @ApiUnauthorizedResponse({
    type: TranslationErrorDto,
    description: 'invalid_credentials: unknown email address or wrong password (not told apart); from the 5th wrong password before the lock, the message says how many are left and for how long the lock would be',
  })
  @ApiTooManyRequestsResponse({ type: TranslationErrorDto, description: 'rate_limited: sign-in is locked after too many wrong passwords (codes of two-step sign-in count with them); the message says for how long' })
  async signIn(@Body() body: SignInDto, @Req() request: FastifyRequest, @Res({ passthrough: true }) reply: FastifyReply): Promise<SessionResponseDto | SecondFactorRequiredResponseDto> {
    const email = normalizeEmail(body.email);
    const attempt = await this.throttle.admit(email, request.ip);
    const user = await this.users.findByEmail(email);
    // Unknown addresses cost a hash as well, so the answer's timing does not tell which exist.
    const matches = await verifyPassword(body.password, user?.passwordHash ?? UNUSABLE_PASSWORD_HASH);
    if (!user || !matches) throw new ApiError(401, 'invalid_credentials', await attempt.refusal());
    return this.secondFactor.afterPassword(user, attempt, reply);
  }

  @Get('me')
  @SessionAuth()
  @ApiOperation({ summary: 'The signed-in user, their role, account and its activation state, and the CSRF token' })
  @ApiOkResponse({ type: SessionResponseDto })
  me(@CurrentUser() user: SignedIn): Promise<SessionResponseDto> {
    return this.responder.describe(user, user.csrfToken);
  }

  @Delete('session')
  @SessionAuth()
  @ApiOperation({ summary: 'Sign out', description: 'Ends this session and clears its cookie.' })
  @ApiOkResponse({ type: OkResponseDto })
  async signOut(@CurrentUser() user: SignedIn, @Res({ passthrough: true }) reply: FastifyReply): Promise<OkResponseDto> {
    await this.sessions.close(user);
    this.responder.signOut(reply);
    return { ok: true };
  }

  @Delete('sessions')
  @SessionAuth()
  @ApiOperation({ summary: 'Sign out everywhere', description: "Ends every session of the signed-in user, on every browser, this one included." })
  @ApiOkResponse({ type: SignedOutEverywhereResponseDto })
  async signOutEverywhere(@CurrentUser() user: SignedIn, @Res({ passthrough: true }) reply: FastifyReply): Promise<SignedOutEverywhereResponseDto> {
    const closed = await this.sessions.closeAll(user.userId);
    this.responder.signOut(reply);
    return { ok: true, sessions_closed: closed };
  }
}
