import { ApiProperty, IntersectionType } from '@nestjs/swagger';
import { IsString, Length } from 'class-validator';
import { NewPasswordField } from '../../users/dtos/user.dto';

export class ResetTokenDto {
  @ApiProperty({ description: 'The token from the reset link (after #token=)', example: 'pwr_...' })
  @IsString()
  @Length(1, 200)
  token: string;
}

export class CompletePasswordResetDto extends IntersectionType(ResetTokenDto, NewPasswordField) {}

/** Always the same answer, whether or not the address has a user. */
export class PasswordResetRequestedDto {
  @ApiProperty({ enum: [true] })
  ok: true;

  @ApiProperty({ type: 'integer', example: 60, description: 'How long a mailed link works (CONSOLE_PASSWORD_RESET_TTL_SECONDS), in minutes' })
  link_valid_minutes: number;
}

export class PasswordResetLinkDto {
  @ApiProperty({ enum: [true] })
  ok: true;

  @ApiProperty({ format: 'email', description: 'The user whose password the link resets' })
  email: string;

  @ApiProperty({ format: 'date-time' })
  expires_at: Date;
}

export class PasswordResetDoneDto {
  @ApiProperty({ enum: [true] })
  ok: true;

  @ApiProperty({ type: 'integer', description: 'Sessions of the user that were ended, on every browser' })
  sessions_closed: number;
}
