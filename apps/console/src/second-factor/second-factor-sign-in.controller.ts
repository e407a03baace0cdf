import { Body, Controller, HttpCode, Post, Req, Res } from '@nestjs/common';
import { ApiOkResponse, ApiOperation, ApiTags, ApiTooManyRequestsResponse, ApiUnauthorizedResponse, ApiUnprocessableEntityResponse } from '@nestjs/swagger';
import { TranslationErrorDto } from '@platform/errors';
import { Public } from '@platform/service-kit';
import type { FastifyReply, FastifyRequest } from 'fastify';
import { CompleteSignInDto, SecondFactorSessionResponseDto } from './dtos/second-factor.dto';
import { CHALLENGE_SECONDS, SecondFactorSignIn } from './second-factor-sign-in.service';
import { proofOf } from './second-factor.service';

@ApiTags('session')
@Controller('console/api/session')
export class SecondFactorSignInController {
  constructor(private readonly signIn: SecondFactorSignIn) {}

  @Public()
  @Post('second-factor')
  @HttpCode(200)
  @ApiOperation({
    summary: 'Complete sign-in with a code',
    description:
      `For a user with two-step sign-in, after the right password answered \`second_factor_required\`: the challenge with a code of the authenticator app or a recovery code. ` +
      `Sets the session cookie as sign-in does. A challenge works once, for ${CHALLENGE_SECONDS / 60} minutes; a code once; a recovery code once (the answer says how many are left). ` +
      'Wrong codes count against the same limits as wrong passwords, per account and per client address.',
  })
  @ApiOkResponse({ type: SecondFactorSessionResponseDto })
  @ApiUnauthorizedResponse({
    type: TranslationErrorDto,
    description: 'invalid_code: a wrong code or recovery code, or one used already (the challenge stays usable); near the lock the message says how many tries are left. challenge_expired: the challenge is unknown, expired or used',
  })
  @ApiUnprocessableEntityResponse({ type: TranslationErrorDto, description: 'invalid_request: neither or both of code and recovery_code, or a code that is not 6 digits' })
  @ApiTooManyRequestsResponse({ type: TranslationErrorDto, description: 'rate_limited: sign-in is locked after too many wrong passwords or codes; the message says for how long' })
  complete(@Body() body: CompleteSignInDto, @Req() request: FastifyRequest, @Res({ passthrough: true }) reply: FastifyReply): Promise<SecondFactorSessionResponseDto> {
    return this.signIn.complete(body.challenge, proofOf(body), request.ip, reply);
  }
}
