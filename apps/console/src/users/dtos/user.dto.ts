import { applyDecorators } from '@nestjs/common';
import { ApiProperty, ApiPropertyOptional } from '@nestjs/swagger';
import { EU_LANGUAGES } from '@platform/contracts';
import type { Reviewer } from '@platform/review';
import { ArrayMaxSize, ArrayMinSize, IsArray, IsEmail, IsIn, IsOptional, IsString, Length, MaxLength } from 'class-validator';
import { CONSOLE_ROLES, type ConsoleRole } from '../console-user.entity';

const LANGUAGES_RULE = 'languages must be a list of EU language codes such as ["de", "fr"]';

/** The target languages a reviewer reviews; only for the role reviewer. */
const ReviewerLanguages = (description: string) =>
  applyDecorators(
    ApiPropertyOptional({ type: [String], enum: EU_LANGUAGES, minItems: 1, description, example: ['de', 'fr'] }),
    IsOptional(),
    IsArray({ message: LANGUAGES_RULE }),
    ArrayMinSize(1, { message: LANGUAGES_RULE }),
    ArrayMaxSize(EU_LANGUAGES.length, { message: LANGUAGES_RULE }),
    IsIn(EU_LANGUAGES, { each: true, message: LANGUAGES_RULE }),
  );

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

export class ChangeUserDto {
  @ApiPropertyOptional({ enum: CONSOLE_ROLES, description: 'owner: everything, users included; member: keys and work of the account; reviewer: review work only' })
  @IsOptional()
  @IsIn(CONSOLE_ROLES)
  role?: ConsoleRole;

  @ReviewerLanguages('For a reviewer: the languages they review. Without any yet, a reviewer reviews nothing')
  languages?: string[];
}

export class InviteUserDto extends EmailField {
  @ApiProperty({ enum: CONSOLE_ROLES, required: false, default: 'member' })
  @IsOptional()
  @IsIn(CONSOLE_ROLES)
  role?: ConsoleRole;

  @ReviewerLanguages('For a reviewer: the target languages they will review (they can also be set later)')
  languages?: string[];
}

/** A reviewer user's reviewer record: its id is what `admin reviewer:revoke` takes. */
export class ReviewerViewDto {
  @ApiProperty({ format: 'uuid' })
  id: string;

  @ApiProperty({ type: [String], example: ['de', 'fr'] })
  languages: string[];

  @ApiProperty({ type: String, format: 'date-time', nullable: true, description: 'When an operator revoked it; null while it works' })
  revoked_at: Date | null;

  static from(reviewer: Reviewer): ReviewerViewDto {
    return { id: reviewer.id, languages: reviewer.languages, revoked_at: reviewer.revokedAt };
  }
}

/** Who a user or an invitation is for, and as what. */
export class PersonViewDto {
  @ApiProperty({ format: 'uuid' })
  id: string;

  @ApiProperty({ format: 'email' })
  email: string;

  @ApiProperty({ enum: CONSOLE_ROLES })
  role: ConsoleRole;
}

export class UserViewDto extends PersonViewDto {
  @ApiPropertyOptional({ type: ReviewerViewDto, description: 'For users with the role reviewer, in the list of users' })
  reviewer?: ReviewerViewDto;

  static from(user: { id: string; email: string; role: ConsoleRole; reviewer?: Reviewer | null }): UserViewDto {
    return { id: user.id, email: user.email, role: user.role, ...(user.role === 'reviewer' && user.reviewer && { reviewer: ReviewerViewDto.from(user.reviewer) }) };
  }
}

export class UserResponseDto {
  @ApiProperty({ enum: [true] })
  ok: true;

  @ApiProperty()
  user: UserViewDto;
}

/** An invitation not yet accepted: who is invited, as what, until when. */
export class InvitationViewDto extends PersonViewDto {
  @ApiPropertyOptional({ type: [String], description: 'For a reviewer: the languages they will review' })
  languages?: string[];

  @ApiProperty({ format: 'date-time' })
  expires_at: Date;

  static from(invitation: { id: string; email: string; role: ConsoleRole; languages: string[]; expiresAt: Date }): InvitationViewDto {
    const { id, email, role, languages, expiresAt } = invitation;
    return { id, email, role, ...(role === 'reviewer' && { languages }), expires_at: expiresAt };
  }
}

export class InvitationResponseDto {
  @ApiProperty({ enum: [true] })
  ok: true;

  @ApiProperty()
  invitation: InvitationViewDto;
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
