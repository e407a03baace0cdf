import { Body, Controller, Delete, Get, HttpCode, Param, Patch, Post } from '@nestjs/common';
import { ApiCreatedResponse, ApiNotFoundResponse, ApiOkResponse, ApiOperation, ApiParam, ApiTags, ApiUnprocessableEntityResponse } from '@nestjs/swagger';
import { TranslationErrorDto } from '@platform/errors';
import { InvitationsService, type IssuedInvitation } from '../invitations/invitations.service';
import { SessionAuth } from '../sessions/session-auth.decorator';
import { CurrentUser, Roles } from '../sessions/session.guard';
import type { SignedIn } from '../sessions/sessions.service';
import { InvitationResponseDto, InvitationViewDto, InviteUserDto, IssuedInvitationResponseDto, ChangeUserDto, UserListResponseDto, UserResponseDto, UserViewDto } from './dtos/user.dto';
import { UsersService } from './users.service';

const USER_ID = { name: 'id', format: 'uuid', description: 'User id' };
const INVITATION_ID = { name: 'id', format: 'uuid', description: 'Invitation id' };

const issuedInvitation = ({ invitation, link, mail }: IssuedInvitation): IssuedInvitationResponseDto => ({
  ok: true,
  invitation: InvitationViewDto.from(invitation),
  link,
  mailed: mail?.sent === true,
});

@ApiTags('users')
@SessionAuth()
@Roles('owner')
@Controller('console/api/users')
export class UsersController {
  constructor(
    private readonly users: UsersService,
    private readonly invitations: InvitationsService,
  ) {}

  @Get()
  @ApiOperation({ summary: "The account's users and open invitations (owners only)" })
  @ApiOkResponse({ type: UserListResponseDto })
  async list(@CurrentUser() caller: SignedIn): Promise<UserListResponseDto> {
    const [users, invitations] = await Promise.all([this.users.list(caller.accountId), this.invitations.open(caller.accountId)]);
    return { ok: true, users: users.map((user) => UserViewDto.from(user)), invitations: invitations.map((invitation) => InvitationViewDto.from(invitation)) };
  }

  @Post('invitations')
  @ApiOperation({
    summary: 'Invite a person to the account (owners only)',
    description:
      'Answers a one-time link, valid for CONSOLE_INVITATION_TTL_SECONDS, where the person sets a password, and mails it to them when the console has a mail server (SMTP_URL). ' +
      'The role defaults to member; a reviewer is invited with the languages they will review.',
  })
  @ApiCreatedResponse({ type: IssuedInvitationResponseDto })
  @ApiUnprocessableEntityResponse({ type: TranslationErrorDto, description: 'invalid_request: a field is invalid, or the address already has a user' })
  async invite(@CurrentUser() caller: SignedIn, @Body() body: InviteUserDto): Promise<IssuedInvitationResponseDto> {
    return issuedInvitation(await this.invitations.invite(caller.accountId, body.email, body.role ?? 'member', body.languages));
  }

  @Post('invitations/:id/resend')
  @HttpCode(200)
  @ApiOperation({
    summary: 'Send an open invitation again with a new link (owners only)',
    description: 'The earlier link stops working; the new one is valid for CONSOLE_INVITATION_TTL_SECONDS from now, answered once and mailed as on invitation.',
  })
  @ApiParam(INVITATION_ID)
  @ApiOkResponse({ type: IssuedInvitationResponseDto })
  @ApiNotFoundResponse({ type: TranslationErrorDto, description: 'not_found: no open invitation with this id in this account' })
  async resend(@CurrentUser() caller: SignedIn, @Param('id') id: string): Promise<IssuedInvitationResponseDto> {
    return issuedInvitation(await this.invitations.resend(caller.accountId, id));
  }

  @Delete('invitations/:id')
  @ApiOperation({ summary: 'Withdraw an open invitation (owners only)', description: 'Its link stops working at once.' })
  @ApiParam(INVITATION_ID)
  @ApiOkResponse({ type: InvitationResponseDto })
  @ApiNotFoundResponse({ type: TranslationErrorDto, description: 'not_found: no open invitation with this id in this account' })
  async revokeInvitation(@CurrentUser() caller: SignedIn, @Param('id') id: string): Promise<InvitationResponseDto> {
    return { ok: true, invitation: InvitationViewDto.from(await this.invitations.revoke(caller.accountId, id)) };
  }

  @Patch(':id')
  @ApiOperation({
    summary: "Change a user's role, or a reviewer's languages (owners only)",
    description:
      'The change applies to their sessions at once. An account keeps at least one owner. A reviewer reviews the `languages` sent, ' +
      'or those they had as a reviewer before; without any they review nothing yet.',
  })
  @ApiParam(USER_ID)
  @ApiOkResponse({ type: UserResponseDto })
  @ApiNotFoundResponse({ type: TranslationErrorDto, description: 'not_found: no such user in this account' })
  @ApiUnprocessableEntityResponse({
    type: TranslationErrorDto,
    description: 'invalid_request: an unknown role or language, languages for a role other than reviewer, or the last owner would be demoted',
  })
  async change(@CurrentUser() caller: SignedIn, @Param('id') id: string, @Body() body: ChangeUserDto): Promise<UserResponseDto> {
    return { ok: true, user: UserViewDto.from(await this.users.change(caller.accountId, id, body)) };
  }

  @Delete(':id')
  @ApiOperation({ summary: 'Remove a user (owners only)', description: 'Their sessions end at once. An account keeps at least one owner.' })
  @ApiParam(USER_ID)
  @ApiOkResponse({ type: UserResponseDto })
  @ApiNotFoundResponse({ type: TranslationErrorDto, description: 'not_found: no such user in this account' })
  @ApiUnprocessableEntityResponse({ type: TranslationErrorDto, description: 'invalid_request: the last owner would be removed' })
  async remove(@CurrentUser() caller: SignedIn, @Param('id') id: string): Promise<UserResponseDto> {
    return { ok: true, user: UserViewDto.from(await this.users.remove(caller.accountId, id)) };
  }
}
