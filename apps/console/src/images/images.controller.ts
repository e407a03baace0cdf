import { Controller, Delete, Get, Optional, Param, Post } from '@nestjs/common';
import { ApiCreatedResponse, ApiNotFoundResponse, ApiOkResponse, ApiOperation, ApiTags, ApiUnprocessableEntityResponse } from '@nestjs/swagger';
import { TranslationErrorDto } from '@platform/errors';
import { TokenService } from '@platform/image-tokens';
import { SessionAuth } from '../sessions/session-auth.decorator';
import { CurrentUser, Roles } from '../sessions/session.guard';
import type { SignedIn } from '../sessions/sessions.service';
import {
  ImageSubscriptionListResponseDto,
  ImageSubscriptionDto,
  ImageTokenDto,
  ImageTokenListResponseDto,
  ImageTokenResponseDto,
  ImageUsageResponseDto,
  IssuedImageTokenResponseDto,
  MonthlyConversionsDto,
} from './dtos/image-subscription.dto';
import { imagesNotConnected } from './images-not-connected';

/**
 * The image subscriptions an operator linked to the account, their tokens and conversions,
 * with the token service's rules. Owners and members manage tokens, as they manage API keys.
 */
@ApiTags('images')
@SessionAuth()
@Roles('owner', 'member')
@ApiNotFoundResponse({
  type: TranslationErrorDto,
  description: "images_not_connected: this console has no image product (IMAGE_DATABASE_URL unset); not_found: no such subscription or token of the account's",
})
@Controller('console/api/images/subscriptions')
export class ImagesController {
  constructor(@Optional() private readonly tokenService?: TokenService) {}

  private get tokens(): TokenService {
    if (!this.tokenService) throw imagesNotConnected();
    return this.tokenService;
  }

  @Get()
  @ApiOperation({ summary: "List the account's image subscriptions with this month's conversions against their limits" })
  @ApiOkResponse({ type: ImageSubscriptionListResponseDto })
  async list(@CurrentUser() user: SignedIn): Promise<ImageSubscriptionListResponseDto> {
    return { ok: true, subscriptions: (await this.tokens.subscriptionsOf(user.accountId)).map((s) => ImageSubscriptionDto.from(s)) };
  }

  @Get(':id/usage')
  @ApiOperation({ summary: 'Conversions per calendar month of a subscription, the last 12 months' })
  @ApiOkResponse({ type: ImageUsageResponseDto })
  async usage(@CurrentUser() user: SignedIn, @Param('id') id: string): Promise<ImageUsageResponseDto> {
    const subscription = await this.tokens.subscriptionOf(user.accountId, id);
    const months = await this.tokens.monthlyConversions(subscription);
    return { ok: true, monthly_limit: subscription.limit, months: months.map((m) => MonthlyConversionsDto.from(m)) };
  }

  @Get(':id/tokens')
  @ApiOperation({ summary: "List a subscription's access tokens, revoked ones included (never their secrets)" })
  @ApiOkResponse({ type: ImageTokenListResponseDto })
  async tokensOf(@CurrentUser() user: SignedIn, @Param('id') id: string): Promise<ImageTokenListResponseDto> {
    return { ok: true, tokens: (await this.tokens.tokensOf(user.accountId, id)).map((t) => ImageTokenDto.from(t)) };
  }

  @Post(':id/tokens')
  @ApiOperation({ summary: 'Create an access token for a subscription', description: 'The plain token is in `secret` of this response only.' })
  @ApiCreatedResponse({ type: IssuedImageTokenResponseDto })
  @ApiUnprocessableEntityResponse({ type: TranslationErrorDto, description: 'invalid_request: the subscription holds the most tokens that are not revoked it may (20)' })
  async createToken(@CurrentUser() user: SignedIn, @Param('id') id: string): Promise<IssuedImageTokenResponseDto> {
    return IssuedImageTokenResponseDto.from(await this.tokens.issueToken(user.accountId, id));
  }

  @Delete(':id/tokens/:tokenId')
  @ApiOperation({ summary: 'Revoke an access token', description: 'The image API refuses it with 401 from the next request on. Revoking a revoked token changes nothing.' })
  @ApiOkResponse({ type: ImageTokenResponseDto })
  async revokeToken(@CurrentUser() user: SignedIn, @Param('id') id: string, @Param('tokenId') tokenId: string): Promise<ImageTokenResponseDto> {
    return { ok: true, token: ImageTokenDto.from(await this.tokens.revokeToken(user.accountId, id, tokenId)) };
  }
}
