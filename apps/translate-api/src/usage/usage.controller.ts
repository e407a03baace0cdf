import { Controller, Get } from '@nestjs/common';
import { ApiOkResponse, ApiOperation, ApiTags } from '@nestjs/swagger';
import { ApiKeyAuth, CurrentApiKey } from '@platform/auth';
import type { ApiKeyPrincipal } from '@platform/contracts';
import { ApiRateLimited, RATE_LIMIT_HEADER_DOCS, WordQuotaService } from '@platform/quota';
import { TranslationErrorDto } from '@platform/errors';
import { UsageResponseDto } from './dtos/usage-response.dto';

@ApiTags('usage')
@ApiKeyAuth()
@Controller('api/v1/usage')
export class UsageController {
  constructor(private readonly quota: WordQuotaService) {}

  @Get()
  @ApiOperation({
    summary: "The calling key's usage this month",
    description:
      'Words and cost charged to the key in the current calendar month (UTC) and its monthly word limit. ' +
      'Sandbox keys are held to the test quota even when their own limit is higher.',
  })
  @ApiOkResponse({ type: UsageResponseDto, headers: RATE_LIMIT_HEADER_DOCS })
    @ApiRateLimited(TranslationErrorDto)
  async usage(@CurrentApiKey() key: ApiKeyPrincipal): Promise<UsageResponseDto> {
    const { month, words, costCents } = await this.quota.usage(key.keyId);
    const limit = this.quota.limitFor(key);
    return { ok: true, month, words, cost_cents: costCents, limit, remaining: limit === null ? null : Math.max(0, limit - words) };
  }
}
