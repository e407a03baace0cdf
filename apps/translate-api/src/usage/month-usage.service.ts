import { Injectable } from '@nestjs/common';
import type { ApiKeyPrincipal } from '@platform/contracts';
import { usageStanding, UsageResponseDto, WordQuotaService } from '@platform/quota';

export const modeOf = (key: ApiKeyPrincipal): 'sandbox' | 'live' => (key.sandbox ? 'sandbox' : 'live');

/** A key's words, cost and limits this month, as every API that reports usage shows them. */
@Injectable()
export class MonthUsage {
  constructor(private readonly quota: WordQuotaService) {}

  async of(key: ApiKeyPrincipal): Promise<UsageResponseDto> {
    const [own, account] = await Promise.all([this.quota.usage(key.keyId), this.quota.accountUsage(key)]);
    const standing = usageStanding(this.quota.limitsFor(key), own.words, account.words);
    return {
      ok: true,
      month: own.month,
      words: own.words,
      cost_cents: own.costCents,
      limit: standing.limit,
      remaining: standing.remaining,
      account: { mode: modeOf(key), words: account.words, cost_cents: account.costCents, ...standing.account },
    };
  }
}
