import { ApiProperty, ApiPropertyOptional } from '@nestjs/swagger';
import { IsOptional, IsString, Length, Matches } from 'class-validator';
import { SessionResponseDto } from '../../sessions/dtos/session.dto';
import { RECOVERY_CODE_COUNT } from '../recovery-codes';
import { CODE_PATTERN } from '../totp';

const CODE_RULE = 'code must be the 6 digits your authenticator app shows';

export class SecondFactorCodeDto {
  @ApiProperty({ pattern: '^\\d{6}$', example: '123456', description: 'The code the authenticator app shows now' })
  @IsString({ message: CODE_RULE })
  @Matches(CODE_PATTERN, { message: CODE_RULE })
  code: string;
}

/** A code of the authenticator app, or one of the recovery codes: one of the two. */
export class SecondFactorProofDto {
  @ApiPropertyOptional({ pattern: '^\\d{6}$', example: '123456', description: 'The code the authenticator app shows now; or send recovery_code' })
  @IsOptional()
  @IsString({ message: CODE_RULE })
  @Matches(CODE_PATTERN, { message: CODE_RULE })
  code?: string;

  @ApiPropertyOptional({ maxLength: 64, example: 'k7mp-x2qa-9rtz-bd4e', description: 'One of the recovery codes, with or without its dashes; it works once' })
  @IsOptional()
  @IsString()
  @Length(1, 64)
  recovery_code?: string;
}

export class CompleteSignInDto extends SecondFactorProofDto {
  @ApiProperty({ maxLength: 128, description: 'The challenge the right password was answered with' })
  @IsString()
  @Length(1, 128)
  challenge: string;
}

export class DisableSecondFactorDto extends SecondFactorProofDto {
  @ApiProperty({ maxLength: 256, description: 'The current password' })
  @IsString()
  @Length(1, 256)
  password: string;
}

/** What a right password answers when the user has two-step sign-in on: no session yet. */
export class SecondFactorRequiredResponseDto {
  @ApiProperty({ enum: [true] })
  ok: true;

  @ApiProperty({ enum: [true] })
  second_factor_required: true;

  @ApiProperty({ description: 'Send it with a code to POST /console/api/session/second-factor; it works once, until expires_at' })
  challenge: string;

  @ApiProperty({ format: 'date-time' })
  expires_at: Date;
}

export class SecondFactorSessionResponseDto extends SessionResponseDto {
  @ApiPropertyOptional({ type: 'integer', description: 'After signing in with a recovery code: how many unused ones are left' })
  recovery_codes_left?: number;
}

export const SECOND_FACTOR_STATES = ['off', 'pending', 'active'] as const;
export type SecondFactorState = (typeof SECOND_FACTOR_STATES)[number];

export class SecondFactorStatusResponseDto {
  @ApiProperty({ enum: [true] })
  ok: true;

  @ApiProperty({ enum: SECOND_FACTOR_STATES, description: 'off; pending: set up, waiting for its first code; active: every sign-in asks for a code' })
  state: SecondFactorState;

  @ApiProperty({ type: String, format: 'date-time', nullable: true, description: 'When it was turned on' })
  enabled_at: Date | null;

  @ApiProperty({ type: 'integer', description: 'Recovery codes not used yet' })
  recovery_codes_left: number;
}

export class EnrolmentResponseDto {
  @ApiProperty({ enum: [true] })
  ok: true;

  @ApiProperty({ description: 'Base32, for typing into the authenticator app; shown this once', example: 'JBSWY3DPEHPK3PXPJBSWY3DPEHPK3PXP' })
  secret: string;

  @ApiProperty({ description: 'The same secret as an otpauth:// URI, for a QR code', example: 'otpauth://totp/EU%20Platform%20console:ana%40example.eu?secret=...&issuer=EU%20Platform%20console' })
  otpauth_uri: string;
}

export class RecoveryCodesResponseDto {
  @ApiProperty({ enum: [true] })
  ok: true;

  @ApiProperty({ type: [String], minItems: RECOVERY_CODE_COUNT, maxItems: RECOVERY_CODE_COUNT, description: 'Shown this once; each works once, in place of a code. Earlier ones stop working' })
  recovery_codes: string[];
}
