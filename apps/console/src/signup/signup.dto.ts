import { ApiProperty, IntersectionType } from '@nestjs/swagger';
import { KeyViewDto } from '@platform/auth';
import { IsString, Length } from 'class-validator';
import { SessionResponseDto } from '../sessions/dtos/session.dto';
import { EmailField, NewPasswordField } from '../users/dtos/user.dto';

export class SignUpDto extends IntersectionType(EmailField, NewPasswordField) {
  @ApiProperty({ minLength: 1, maxLength: 200, description: "The new account's name, unique", example: 'Beispiel GmbH' })
  @IsString()
  @Length(1, 200)
  account_name: string;
}

export class SignUpResponseDto extends SessionResponseDto {
  @ApiProperty({ description: "The account's first key, a sandbox key" })
  key: KeyViewDto;

  @ApiProperty({ description: 'The plain sandbox key. It is shown only in this response; store it now', example: 'svc_test_...' })
  secret: string;
}
