import { ApiProperty } from '@nestjs/swagger';
import { IsString, Length } from 'class-validator';
import type { ActivationState } from '../activation.service';

export const ACTIVATION_STATES: ActivationState[] = ['sandbox', 'pending', 'active'];

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
}

export class ActivationResponseDto {
  @ApiProperty({ enum: [true] })
  ok: true;

  @ApiProperty()
  account: AccountViewDto;
}
