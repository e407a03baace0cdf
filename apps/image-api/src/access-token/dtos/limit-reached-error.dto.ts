import { ApiProperty } from '@nestjs/swagger';
import { ImageErrorDto } from '@platform/errors';

/** Image-service contract, section 2.4: the error body once usage has reached the limit. */
export class LimitReachedErrorDto extends ImageErrorDto {
  @ApiProperty({ example: false, description: 'false: the limit resets with the next calendar month (UTC)' })
  declare error_fatal_status: boolean;

  @ApiProperty({ example: 500, description: 'Conversions used this month; equals api_limit_max' })
  api_limit_usage: number;

  @ApiProperty({ example: 500 })
  api_limit_max: number;
}
