import { Controller, Get } from '@nestjs/common';
import { ApiOkResponse, ApiOperation, ApiTags } from '@nestjs/swagger';
import { ApiKeyAuth, CurrentApiKey } from '@platform/auth';
import type { ApiKeyPrincipal } from '@platform/contracts';
import { ApiRateLimited, RATE_LIMIT_HEADER_DOCS, tighter, WordQuotaService } from '@platform/quota';
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
      'Words and cost charged to the key in the current calendar month (UTC) and its monthly word limit, and under `account` ' +
      "the same for all the account's keys of the key's mode together. A key is held to its own limit and to its account's: " +
      "the operator's ceiling for live keys, the sandbox quota (or a lower ceiling) for sandbox keys.",
  })
  @ApiOkResponse({ type: UsageResponseDto, headers: RATE_LIMIT_HEADER_DOCS })
  @ApiRateLimited(TranslationErrorDto)
  async usage(@CurrentApiKey() key: ApiKeyPrincipal): Promise<UsageResponseDto> {
    const [own, account] = await Promise.all([this.quota.usage(key.keyId), this.quota.accountUsage(key)]);
    const limits = this.quota.limitsFor(key);
    const left = (limit: number | null, words: number) => (limit === null ? null : Math.max(0, limit - words));
    const accountLeft = left(limits.account, account.words);
    return {
      ok: true,
      month: own.month,
      words: own.words,
      cost_cents: own.costCents,
      limit: tighter(limits.key, limits.account),
      remaining: tighter(left(limits.key, own.words), accountLeft),
      account: { mode: key.sandbox ? 'sandbox' : 'live', words: account.words, cost_cents: account.costCents, limit: limits.account, remaining: accountLeft },
    };
  }
}
