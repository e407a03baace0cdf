import { Controller, Get, Query } from '@nestjs/common';
import { ApiOkResponse, ApiOperation, ApiTags, ApiUnprocessableEntityResponse } from '@nestjs/swagger';
import { AccountService, ApiKeyService, KeyViewDto } from '@platform/auth';
import { TranslationErrorDto } from '@platform/errors';
import { UsageHistoryService, usageRange, usageStanding, WordQuotaService, type UsageGranularity } from '@platform/quota';
import { accountMode, ModeQueryDto } from '../account-mode/mode-query.dto';
import { SessionAuth } from '../sessions/session-auth.decorator';
import { CurrentUser, Roles } from '../sessions/session.guard';
import type { SignedIn } from '../sessions/sessions.service';
import { ConsoleUsageResponseDto, UsagePeriodAmountDto } from './dtos/console-usage.dto';

/** The account's usage as GET /api/v1/usage reports it to a key, for all keys of a mode at once. */
@ApiTags('usage')
@SessionAuth()
@Roles('owner', 'member')
@Controller('console/api/usage')
export class ConsoleUsageController {
  constructor(
    private readonly quota: WordQuotaService,
    private readonly history: UsageHistoryService,
    private readonly keys: ApiKeyService,
    private readonly accounts: AccountService,
  ) {}

  @Get()
  @ApiOperation({
    summary: "This month's usage of the account and of each key, words per day this month and per month for a year",
    description: 'Figures of one mode (sandbox or live), refunds taken off, in UTC calendar days and months, as the public usage endpoint counts them.',
  })
  @ApiOkResponse({ type: ConsoleUsageResponseDto })
  @ApiUnprocessableEntityResponse({ type: TranslationErrorDto, description: 'invalid_request: mode missing or unknown' })
  async usage(@CurrentUser() user: SignedIn, @Query() query: ModeQueryDto): Promise<ConsoleUsageResponseDto> {
    const mode = accountMode(user, query);
    const [account, keys, total, days, months] = await Promise.all([
      this.accounts.findById(user.accountId),
      this.keys.list({ accountId: user.accountId, sandboxOnly: mode.sandbox }),
      this.quota.accountUsage(mode),
      this.periods(user, mode.sandbox, 'day'),
      this.periods(user, mode.sandbox, 'month'),
    ]);
    const ceilings = { monthlyWordLimit: account?.monthlyWordLimit ?? null, rateLimitPerMinute: account?.rateLimitPerMinute ?? null };
    const ofMode = keys.filter((key) => key.sandbox === mode.sandbox);
    const perKey = await Promise.all(
      ofMode.map(async (key) => {
        const used = await this.quota.usage(key.id);
        const standing = usageStanding(this.quota.limitsFor({ sandbox: key.sandbox, monthlyWordLimit: key.monthlyWordLimit, account: ceilings }), used.words, total.words);
        const { id, name, prefix, hint, revoked } = KeyViewDto.from(key);
        return { id, name, prefix, hint, revoked, words: used.words, cost_cents: used.costCents, limit: standing.limit, remaining: standing.remaining };
      }),
    );
    // The account's limit of the mode, which no key's own limit changes.
    const accountLimits = usageStanding(this.quota.limitsFor({ sandbox: mode.sandbox, monthlyWordLimit: null, account: ceilings }), 0, total.words).account;
    return {
      ok: true,
      mode: query.mode,
      month: total.month,
      account: { words: total.words, cost_cents: total.costCents, ...accountLimits },
      keys: perKey,
      days,
      months,
    };
  }

  /** The account's figures alone: no key is named, so the key's share of each period is zero and left out. */
  private async periods(user: SignedIn, sandbox: boolean, granularity: UsageGranularity): Promise<UsagePeriodAmountDto[]> {
    const periods = await this.history.history({ accountId: user.accountId, sandbox, keyId: null }, usageRange({ granularity }));
    return periods.map(({ period, account }) => ({ period, words: account.words, cost_cents: account.costCents }));
  }
}
