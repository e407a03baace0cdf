import { ApiProperty } from '@nestjs/swagger';
import { IsEmail, IsIn, IsOptional, IsString, Length, MaxLength } from 'class-validator';
import { CONSOLE_ROLES, type ConsoleRole } from '../console-user.entity';

export const PASSWORD_RULE = 'from 12 to 256 characters';

export class EmailField {
  @ApiProperty({ format: 'email', maxLength: 254, example: 'ana@example.eu' })
  @IsString()
  @MaxLength(254)
  @IsEmail({}, { message: 'email must be an email address' })
  email: string;
}

export class NewPasswordField {
  @ApiProperty({ minLength: 12, maxLength: 256, description: `The new password, ${PASSWORD_RULE}` })
  @IsString()
  @Length(12, 256, { message: `password must be ${PASSWORD_RULE}` })
  password: string;
}

export class RoleDto {
  @ApiProperty({ enum: CONSOLE_ROLES, description: 'owner: everything, users included; member: keys and work of the account; reviewer: review work only' })
  @IsIn(CONSOLE_ROLES)
  role: ConsoleRole;
}

export class InviteUserDto extends EmailField {
  @ApiProperty({ enum: CONSOLE_ROLES, required: false, default: 'member' })
  @IsOptional()
  @IsIn(CONSOLE_ROLES)
  role?: ConsoleRole;
}

export class UserViewDto {
  @ApiProperty({ format: 'uuid' })
  id: string;

  @ApiProperty({ format: 'email' })
  email: string;

  @ApiProperty({ enum: CONSOLE_ROLES })
  role: ConsoleRole;

  static from(user: { id: string; email: string; role: ConsoleRole }): UserViewDto {
    return { id: user.id, email: user.email, role: user.role };
  }
}

export class UserResponseDto {
  @ApiProperty({ enum: [true] })
  ok: true;

  @ApiProperty()
  user: UserViewDto;
}

/** An invitation not yet accepted: who is invited, as what, until when. */
export class InvitationViewDto extends UserViewDto {
  @ApiProperty({ format: 'date-time' })
  expires_at: Date;

  static from(invitation: { id: string; email: string; role: ConsoleRole; expiresAt: Date }): InvitationViewDto {
    return { ...UserViewDto.from(invitation), expires_at: invitation.expiresAt };
  }
}

export class IssuedInvitationResponseDto {
  @ApiProperty({ enum: [true] })
  ok: true;

  @ApiProperty()
  invitation: InvitationViewDto;

  @ApiProperty({
    description: 'The one-time link where the invited person sets a password. Shown only in this response; pass it on unless it was mailed',
    example: 'https://console.example.eu/console/accept-invitation#token=inv_...',
  })
  link: string;

  @ApiProperty({
    description: 'Whether the link was mailed to the invited address. False when the console sends no mail (no SMTP_URL) or the mail server refused or could not be reached; the invitation exists either way',
  })
  mailed: boolean;
}

export class UserListResponseDto {
  @ApiProperty({ enum: [true] })
  ok: true;

  @ApiProperty({ type: [UserViewDto] })
  users: UserViewDto[];

  @ApiProperty({ type: [InvitationViewDto], description: 'Invitations not yet accepted and not expired' })
  invitations: InvitationViewDto[];
}
