import { Body, Controller, HttpCode, Post, Res } from '@nestjs/common';
import { ApiNotFoundResponse, ApiOkResponse, ApiOperation, ApiTags, ApiUnprocessableEntityResponse } from '@nestjs/swagger';
import { TranslationErrorDto } from '@platform/errors';
import { Public } from '@platform/service-kit';
import type { FastifyReply } from 'fastify';
import { SessionResponseDto } from '../sessions/dtos/session.dto';
import { SessionResponder } from '../sessions/session-responder.service';
import { AcceptInvitationDto } from './dtos/accept-invitation.dto';
import { InvitationsService } from './invitations.service';

@ApiTags('session')
@Controller('console/api/invitations')
export class InvitationsController {
  constructor(
    private readonly invitations: InvitationsService,
    private readonly responder: SessionResponder,
  ) {}

  @Public()
  @Post('accept')
  @HttpCode(200)
  @ApiOperation({ summary: 'Accept an invitation: set a password and sign in', description: 'An invitation works once and until it expires.' })
  @ApiOkResponse({ type: SessionResponseDto })
  @ApiNotFoundResponse({ type: TranslationErrorDto, description: 'not_found: the token is unknown, already used or expired' })
  @ApiUnprocessableEntityResponse({ type: TranslationErrorDto, description: 'invalid_request: the password is too short or too long, or the address got a user meanwhile' })
  async accept(@Body() body: AcceptInvitationDto, @Res({ passthrough: true }) reply: FastifyReply): Promise<SessionResponseDto> {
    return this.responder.signIn(await this.invitations.accept(body.token, body.password), reply);
  }
}
