import { ApiProperty } from '@nestjs/swagger';
import { IsString, Length } from 'class-validator';
import { NewPasswordField } from '../../users/dtos/user.dto';

export class AcceptInvitationDto extends NewPasswordField {
  @ApiProperty({ description: 'The token from the invitation link (after #token=)', example: 'inv_...' })
  @IsString()
  @Length(1, 200)
  token: string;
}
