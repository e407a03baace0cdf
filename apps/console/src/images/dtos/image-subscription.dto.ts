import { ApiProperty } from '@nestjs/swagger';
import { IMAGE_PLANS, isPremiumPlan, type AccessTokenView, type ImagePlan, type IssuedAccessToken, type MonthlyConversions, type SubscriptionView } from '@platform/image-tokens';

/** An image subscription of the account: its plan, limit and this month's conversions. */
export class ImageSubscriptionDto {
  @ApiProperty({ format: 'uuid' })
  id: string;

  @ApiProperty({ enum: IMAGE_PLANS })
  plan: ImagePlan;

  @ApiProperty({ description: 'true for the plans starter, pro and business' })
  premium: boolean;

  @ApiProperty({ description: 'Tokens of an inactive subscription are refused with 403 by the image API' })
  active: boolean;

  @ApiProperty({ type: 'integer', description: "Conversions allowed per calendar month (UTC): the plan's, or one the operator set for this subscription" })
  monthly_limit: number;

  @ApiProperty({ example: '2026-11', description: 'The current calendar month (UTC)' })
  month: string;

  @ApiProperty({ type: 'integer', description: 'Conversions counted this month' })
  conversions: number;

  @ApiProperty({ format: 'date-time' })
  created_at: Date;

  static from(subscription: SubscriptionView): ImageSubscriptionDto {
    return {
      id: subscription.id,
      plan: subscription.plan,
      premium: isPremiumPlan(subscription.plan),
      active: subscription.active,
      monthly_limit: subscription.limit,
      month: subscription.month,
      conversions: subscription.usage,
      created_at: subscription.createdAt,
    };
  }
}

export class ImageSubscriptionListResponseDto {
  @ApiProperty({ enum: [true] })
  ok: true;

  @ApiProperty({ type: [ImageSubscriptionDto] })
  subscriptions: ImageSubscriptionDto[];
}

/** An access token without its secret, which is never stored. */
export class ImageTokenDto {
  @ApiProperty({ format: 'uuid' })
  id: string;

  @ApiProperty({ enum: ['img_'] })
  prefix: 'img_';

  @ApiProperty({ description: 'Last four characters of the token, to tell tokens apart', example: 'x7Qa' })
  hint: string;

  @ApiProperty({ format: 'date-time' })
  created_at: Date;

  @ApiProperty({ type: String, format: 'date-time', nullable: true, description: 'When it was revoked; a revoked token is refused with 401' })
  revoked_at: Date | null;

  @ApiProperty({ type: String, format: 'date-time', nullable: true, description: 'When it last authenticated a call of the image API, to the minute; null: never' })
  last_used_at: Date | null;

  static from(token: AccessTokenView): ImageTokenDto {
    return { id: token.id, prefix: 'img_', hint: token.hint, created_at: token.createdAt, revoked_at: token.revokedAt, last_used_at: token.lastUsedAt };
  }
}

export class ImageTokenListResponseDto {
  @ApiProperty({ enum: [true] })
  ok: true;

  @ApiProperty({ type: [ImageTokenDto] })
  tokens: ImageTokenDto[];
}

export class ImageTokenResponseDto {
  @ApiProperty({ enum: [true] })
  ok: true;

  @ApiProperty()
  token: ImageTokenDto;
}

export class IssuedImageTokenResponseDto extends ImageTokenResponseDto {
  @ApiProperty({ description: 'The plain access token. It is shown only in this response; store it now', example: 'img_...' })
  secret: string;

  static from({ token, secret }: IssuedAccessToken): IssuedImageTokenResponseDto {
    return { ok: true, token: ImageTokenDto.from(token), secret };
  }
}

export class MonthlyConversionsDto {
  @ApiProperty({ example: '2026-11' })
  month: string;

  @ApiProperty({ type: 'integer' })
  conversions: number;

  static from({ month, conversions }: MonthlyConversions): MonthlyConversionsDto {
    return { month, conversions };
  }
}

export class ImageUsageResponseDto {
  @ApiProperty({ enum: [true] })
  ok: true;

  @ApiProperty({ type: 'integer', description: "The subscription's monthly limit now" })
  monthly_limit: number;

  @ApiProperty({ type: [MonthlyConversionsDto], description: 'The last 12 calendar months (UTC), oldest first, the current one last; months without conversions as 0' })
  months: MonthlyConversionsDto[];
}
