import { ApiProperty } from '@nestjs/swagger';
import type { SignupState } from '@platform/auth';
import { IsString, Length } from 'class-validator';
import type { ActivationState } from '../activation.service';

export const ACTIVATION_STATES: ActivationState[] = ['sandbox', 'pending', 'active'];
const SIGNUP_STATES: SignupState[] = ['email_unverified', 'awaiting_approval', 'complete'];

export class ActivationRequestDto {
  @ApiProperty({ minLength: 1, maxLength: 200, example: 'Beispiel GmbH' })
  @IsString()
  @Length(1, 200)
  company: string;

  @ApiProperty({ minLength: 4, maxLength: 20, description: 'EU VAT identification number, country prefix first', example: 'DE123456789' })
  @IsString()
  @Length(4, 20)
  vat_id: string;

  @ApiProperty({ minLength: 1, maxLength: 2000, example: 'Translating our shop catalogue into French and Spanish' })
  @IsString()
  @Length(1, 2000)
  intended_use: string;
}

export class AccountViewDto {
  @ApiProperty({ format: 'uuid' })
  id: string;

  @ApiProperty()
  name: string;

  @ApiProperty({
    enum: ACTIVATION_STATES,
    description: 'sandbox: sandbox keys only; pending: production access requested; active: live keys can be created',
  })
  activation: ActivationState;

  @ApiProperty({
    enum: SIGNUP_STATES,
    description:
      'email_unverified: a signed-up account whose owner has not opened the confirmation link yet; awaiting_approval: confirmed, waiting for an operator; ' +
      'complete: the account may hold keys (always so for accounts an operator made)',
  })
  signup: SignupState;
}

export class ActivationResponseDto {
  @ApiProperty({ enum: [true] })
  ok: true;

  @ApiProperty()
  account: AccountViewDto;
}
