import { DynamicModule, Global, Module } from '@nestjs/common';
import { QUOTA_OPTIONS, QuotaOptions, WordQuotaService } from './word-quota.service';

/** Monthly word quota for every feature that translates. Needs the DatabaseModule. */
@Global()
@Module({})
export class QuotaModule {
  static forRoot(options: QuotaOptions): DynamicModule {
    return {
      module: QuotaModule,
      providers: [{ provide: QUOTA_OPTIONS, useValue: options }, WordQuotaService],
      exports: [WordQuotaService],
    };
  }
}
