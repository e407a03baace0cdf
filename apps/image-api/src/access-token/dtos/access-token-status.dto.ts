import { ApiProperty } from '@nestjs/swagger';

/** Image-service contract, section 2.3. */
export class AccessTokenStatusDto {
  @ApiProperty({ description: 'Conversions used in the current calendar month (UTC)', example: 120 })
  api_limit_usage: number;

  @ApiProperty({ description: 'Monthly conversion limit: the plan limit or the token override', example: 500 })
  api_limit_max: number;

  @ApiProperty({ description: 'Subscription is active; an inactive one gets 403 on conversions' })
  api_subscription_active: boolean;

  @ApiProperty({ description: 'True for the plans Starter, Pro and Business; false for Free' })
  api_subscription_premium: boolean;
}
