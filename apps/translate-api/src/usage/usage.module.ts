import { Module } from '@nestjs/common';
import { UsageController } from './usage.controller';

/** GET /api/v1/usage; the WordQuotaService comes from the global QuotaModule. */
@Module({ controllers: [UsageController] })
export class UsageModule {}
