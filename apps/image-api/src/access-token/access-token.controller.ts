import { Controller, Get, Param, Req } from '@nestjs/common';
import { ApiOkResponse, ApiOperation, ApiParam, ApiResponse, ApiTags, ApiUnauthorizedResponse } from '@nestjs/swagger';
import { ImageErrorDto } from '@platform/errors';
import { isPremiumPlan, TokenErrors, TokenService } from '@platform/image-tokens';
import { checkCredential, Public } from '@platform/service-kit';
import type { FastifyRequest } from 'fastify';
import { AccessTokenStatusDto } from './dtos/access-token-status.dto';
import { LimitReachedErrorDto } from './dtos/limit-reached-error.dto';

@ApiTags('access-token')
// The token in the path is the credential; no header token is needed.
@Public()
@Controller('access-token')
export class AccessTokenController {
  constructor(private readonly tokens: TokenService) {}

  @Get(':token')
  @ApiOperation({ summary: 'Validates an access token and reports its usage against its monthly limit' })
  @ApiParam({ name: 'token', description: 'The access token: img_ followed by 40 base62 characters' })
  @ApiOkResponse({ type: AccessTokenStatusDto })
  @ApiResponse({ status: 402, type: LimitReachedErrorDto, description: 'The monthly conversion limit is reached' })
  @ApiUnauthorizedResponse({ type: ImageErrorDto, description: 'Unknown or revoked token (error_fatal_status true)' })
  async status(@Param('token') token: string, @Req() request: FastifyRequest): Promise<AccessTokenStatusDto> {
    const status = await checkCredential(request, token, () => this.tokens.status(token));
    if (!status) throw TokenErrors.invalidToken();
    if (status.usage >= status.limit) throw TokenErrors.limitReached(status.usage, status.limit);
    return {
      api_limit_usage: status.usage,
      api_limit_max: status.limit,
      api_subscription_active: status.active,
      api_subscription_premium: isPremiumPlan(status.plan),
    };
  }
}
