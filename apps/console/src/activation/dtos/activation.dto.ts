import { ApiProperty } from '@nestjs/swagger';
import type { SignupState } from '@platform/auth';
import { normalizeVatNumber, vatNumberProblem } from '@platform/auth/vat-number';
import { Transform } from 'class-transformer';
import { IsString, Length, ValidateBy } from 'class-validator';
import type { ActivationState } from '../activation.service';

export const ACTIVATION_STATES: ActivationState[] = ['sandbox', 'pending', 'active'];
const SIGNUP_STATES: SignupState[] = ['email_unverified', 'awaiting_approval', 'complete'];

/** The number in its EU country's format, the message saying which format when it is not. */
const EuVatNumber = () =>
  ValidateBy({
    name: 'euVatNumber',
    validator: {
      validate: (value: unknown) => typeof value === 'string' && !vatNumberProblem(value),
      defaultMessage: (args) => (typeof args?.value === 'string' ? vatNumberProblem(args.value) : undefined) ?? 'The VAT number must be a text',
    },
  });

export class ActivationRequestDto {
  @ApiProperty({ minLength: 1, maxLength: 200, example: 'Beispiel GmbH' })
  @IsString()
  @Length(1, 200)
  company: string;

  @ApiProperty({
    minLength: 4,
    maxLength: 20,
    description: "EU VAT identification number, country prefix first (EL for Greece, XI for Northern Ireland), in that country's format; spaces, dots and dashes are left out",
    example: 'DE123456789',
  })
  @IsString()
  @Length(4, 20)
  @Transform(({ value }) => (typeof value === 'string' ? normalizeVatNumber(value) : value))
  @EuVatNumber()
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
