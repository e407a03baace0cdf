import { ApiProperty } from '@nestjs/swagger';
import { IsString, Length } from 'class-validator';
import { AccountViewDto } from '../../activation/dtos/activation.dto';
import { EmailField, UserViewDto } from '../../users/dtos/user.dto';

export class SignInDto extends EmailField {
  @ApiProperty({ maxLength: 256 })
  @IsString()
  @Length(1, 256)
  password: string;
}

export class SessionResponseDto {
  @ApiProperty({ enum: [true] })
  ok: true;

  @ApiProperty()
  user: UserViewDto;

  @ApiProperty()
  account: AccountViewDto;

  @ApiProperty({ description: 'Send it in the X-CSRF-Token header with every POST, PUT, PATCH and DELETE of this session' })
  csrf_token: string;
}

export class OkResponseDto {
  @ApiProperty({ enum: [true] })
  ok: true;
}

export class SignedOutEverywhereResponseDto extends OkResponseDto {
  @ApiProperty({ type: 'integer', description: 'Sessions ended, this one included' })
  sessions_closed: number;
}
