import { Body, Controller, Post, Res } from '@nestjs/common';
import { ApiCreatedResponse, ApiNotFoundResponse, ApiOperation, ApiTags, ApiUnprocessableEntityResponse } from '@nestjs/swagger';
import { KeyViewDto } from '@platform/auth';
import { ApiError, TranslationErrorDto } from '@platform/errors';
import { Public } from '@platform/service-kit';
import type { FastifyReply } from 'fastify';
import { ConsoleConfig } from '../config/console.config';
import { SessionResponder } from '../sessions/session-responder.service';
import { SignUpDto, SignUpResponseDto } from './signup.dto';
import { SignUpService } from './signup.service';

@ApiTags('session')
@Controller('console/api/signup')
export class SignUpController {
  constructor(
    private readonly signups: SignUpService,
    private readonly responder: SessionResponder,
    private readonly config: ConsoleConfig,
  ) {}

  @Public()
  @Post()
  @ApiOperation({
    summary: 'Open an account (when CONSOLE_SIGNUP=true)',
    description: 'Creates a sandbox account with the caller as owner and a sandbox key (its secret shown only here), and signs in.',
  })
  @ApiCreatedResponse({ type: SignUpResponseDto })
  @ApiNotFoundResponse({ type: TranslationErrorDto, description: 'not_found: sign-up is not enabled on this installation' })
  @ApiUnprocessableEntityResponse({ type: TranslationErrorDto, description: 'invalid_request: a field is invalid, the account name is taken, or the address already has a user' })
  async signUp(@Body() body: SignUpDto, @Res({ passthrough: true }) reply: FastifyReply): Promise<SignUpResponseDto> {
    if (!this.config.CONSOLE_SIGNUP) throw ApiError.notFound('Sign-up is not enabled here; ask the operator for an invitation');
    const { owner, key } = await this.signups.signUp(body.account_name, body.email, body.password);
    return { ...(await this.responder.signIn(owner, reply)), key: KeyViewDto.from(key.key), secret: key.secret };
  }
}
