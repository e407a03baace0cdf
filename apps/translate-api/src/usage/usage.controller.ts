import { Controller, Get, Query } from '@nestjs/common';
import { ApiExtraModels, ApiOkResponse, ApiOperation, ApiTags, ApiUnprocessableEntityResponse, getSchemaPath } from '@nestjs/swagger';
import { ApiKeyAuth, CurrentApiKey } from '@platform/auth';
import type { ApiKeyPrincipal } from '@platform/contracts';
import {
  ApiRateLimited,
  MAX_USAGE_PERIODS,
  RATE_LIMIT_HEADER_DOCS,
  UsageHistoryResponseDto,
  UsageHistoryService,
  usageRange,
  UsageResponseDto,
} from '@platform/quota';
import { TranslationErrorDto } from '@platform/errors';
import { UsageQueryDto } from './dtos/usage-query.dto';
import { modeOf, MonthUsage } from './month-usage.service';

@ApiTags('usage')
@ApiKeyAuth()
@Controller('api/v1/usage')
export class UsageController {
  constructor(
    private readonly monthUsage: MonthUsage,
    private readonly usageHistory: UsageHistoryService,
  ) {}

  @Get()
  @ApiOperation({
    summary: "The calling key's usage this month, or its history",
    description:
      'Without query parameters: words and cost charged to the key in the current calendar month (UTC) and its monthly word limit, and under `account` ' +
      "the same for all the account's keys of the key's mode together. A key is held to its own limit and to its account's: " +
      "the operator's ceiling for live keys, the sandbox quota (or a lower ceiling) for sandbox keys.\n\n" +
      'With any of `from`, `to`, `granularity`: the history (`UsageHistoryResponseDto`), words and cost per UTC day or calendar month ' +
      "of the key and of its account's keys of the same mode, every period listed (zero when nothing was charged), refunds taken off " +
      `the day of the charge they give back. At most ${MAX_USAGE_PERIODS.day} days or ${MAX_USAGE_PERIODS.month} months per request.`,
  })
  @ApiExtraModels(UsageResponseDto, UsageHistoryResponseDto)
  @ApiOkResponse({
    schema: { oneOf: [{ $ref: getSchemaPath(UsageResponseDto) }, { $ref: getSchemaPath(UsageHistoryResponseDto) }] },
    description: '`UsageResponseDto` without query parameters, `UsageHistoryResponseDto` with any of them',
    headers: RATE_LIMIT_HEADER_DOCS,
  })
  @ApiUnprocessableEntityResponse({
    type: TranslationErrorDto,
    description: 'unsupported_language: `from` or `to` not a date (YYYY-MM-DD), `from` after `to`, a range too long for the granularity, or an unknown granularity; the message names the parameter',
  })
  @ApiRateLimited(TranslationErrorDto)
  async usage(@CurrentApiKey() key: ApiKeyPrincipal, @Query() query: UsageQueryDto): Promise<UsageResponseDto | UsageHistoryResponseDto> {
    const { from, to, granularity } = query;
    if (from === undefined && to === undefined && granularity === undefined) return this.monthUsage.of(key);
    return this.history(key, query);
  }

  private async history(key: ApiKeyPrincipal, query: UsageQueryDto): Promise<UsageHistoryResponseDto> {
    const range = usageRange(query);
    const periods = await this.usageHistory.history(key, range);
    const sum = (pick: (period: (typeof periods)[number]) => number) => periods.reduce((total, period) => total + pick(period), 0);
    return {
      ok: true,
      ...range,
      words: sum((p) => p.words),
      cost_cents: sum((p) => p.costCents),
      account: { mode: modeOf(key), words: sum((p) => p.account.words), cost_cents: sum((p) => p.account.costCents) },
      periods: periods.map((p) => ({ period: p.period, words: p.words, cost_cents: p.costCents, account: { words: p.account.words, cost_cents: p.account.costCents } })),
    };
  }
}

