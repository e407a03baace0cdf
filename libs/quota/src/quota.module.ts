import { DynamicModule, Global, Module } from '@nestjs/common';
import { UsageHistoryService } from './usage-history.service';
import { QUOTA_OPTIONS, QuotaOptions, WordQuotaService } from './word-quota.service';

/** Monthly word quota for every feature that translates, and the usage it records. Needs the DatabaseModule. */
@Global()
@Module({})
export class QuotaModule {
  static forRoot(options: QuotaOptions): DynamicModule {
    return {
      module: QuotaModule,
      providers: [{ provide: QUOTA_OPTIONS, useValue: options }, WordQuotaService, UsageHistoryService],
      exports: [WordQuotaService, UsageHistoryService],
    };
  }
}
