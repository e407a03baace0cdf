import { ApiProperty, ApiPropertyOptional, IntersectionType } from '@nestjs/swagger';
import { KeyViewDto } from '@platform/auth';
import { IsString, Length } from 'class-validator';
import { AccountViewDto } from '../activation/dtos/activation.dto';
import { SessionResponseDto } from '../sessions/dtos/session.dto';
import { EmailField, NewPasswordField } from '../users/dtos/user.dto';

export class SignUpDto extends IntersectionType(EmailField, NewPasswordField) {
  @ApiProperty({
    minLength: 1,
    maxLength: 200,
    description: "The new account's name, unique ignoring case, letter width and surrounding spaces; not a UUID",
    example: 'Beispiel GmbH',
  })
  @IsString()
  @Length(1, 200)
  account_name: string;
}

export class SignUpResponseDto extends SessionResponseDto {
  @ApiProperty({
    description:
      'Whether the confirmation link was mailed to the address. The link is never in an answer; without it the account holds no keys. When false, send it again (POST /console/api/signup/verification-mail)',
  })
  mailed: boolean;
}

export class VerifyEmailDto {
  @ApiProperty({ description: 'The token from the mailed link (after #token=)', example: 'vfy_...' })
  @IsString()
  @Length(1, 200)
  token: string;
}

export class VerifyEmailResponseDto {
  @ApiProperty({ enum: [true] })
  ok: true;

  @ApiProperty({ description: 'The account with its sign-up state: complete, or awaiting_approval where an operator approves sign-ups' })
  account: AccountViewDto;

  @ApiPropertyOptional({ description: "The account's first key, a sandbox key, when the sign-up became complete with this confirmation" })
  key?: KeyViewDto;

  @ApiPropertyOptional({ description: 'The plain sandbox key. It is shown only in this response; store it now', example: 'svc_test_...' })
  secret?: string;
}

export class VerificationMailResponseDto {
  @ApiProperty({ enum: [true] })
  ok: true;

  @ApiProperty({ description: 'Whether the new link was mailed; the earlier links stop working either way' })
  mailed: boolean;
}
