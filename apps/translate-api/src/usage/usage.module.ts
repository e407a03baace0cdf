import { Module } from '@nestjs/common';
import { MonthUsage } from './month-usage.service';
import { UsageController } from './usage.controller';

/** GET /api/v1/usage, and the month's usage for the compatible APIs; the WordQuotaService comes from the global QuotaModule. */
@Module({ controllers: [UsageController], providers: [MonthUsage], exports: [MonthUsage] })
export class UsageModule {}
