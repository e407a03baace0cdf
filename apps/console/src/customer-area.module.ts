import { DynamicModule, Module } from '@nestjs/common';
import { BatchReaderModule } from '@platform/batches';
import { GlossariesModule } from '@platform/glossaries';
import { QuotaModule } from '@platform/quota';
import { ReviewProgress } from '@platform/review';
import { StyleProfilesModule } from '@platform/style-profiles';
import { MemoryFileBodyParser, TranslationMemoryModule } from '@platform/translation-memory';
import { webhookUrlPolicy, WebhooksModule } from '@platform/webhooks';
import { ConsoleBatchesController } from './batches/console-batches.controller';
import { ConsoleConfig } from './config/console.config';
import { ConsoleGlossariesController } from './glossaries/console-glossaries.controller';
import { ConsoleMemoriesController } from './memories/console-memories.controller';
import { ReviewProgressController } from './review-progress/review-progress.controller';
import { ConsoleStyleProfilesController } from './style-profiles/console-style-profiles.controller';
import { ConsoleUsageController } from './usage/console-usage.controller';
import { ConsoleWebhookController } from './webhook/console-webhook.controller';

/**
 * The customer area of the translation product: usage, glossaries, translation memories, style
 * profiles, batches, the webhook and review progress of the signed-in user's account, through the same services as the public API.
 * Needs AuthModule and the translation DatabaseModule in the importing module.
 */
@Module({})
export class CustomerAreaModule {
  static forRoot(config: ConsoleConfig): DynamicModule {
    return {
      module: CustomerAreaModule,
      imports: [
        QuotaModule.forRoot({ sandboxMonthlyWords: config.SANDBOX_MONTHLY_WORDS }),
        GlossariesModule,
        TranslationMemoryModule,
        StyleProfilesModule,
        BatchReaderModule,
        WebhooksModule.withUrlGuard(webhookUrlPolicy(config)),
      ],
      controllers: [ConsoleUsageController, ConsoleGlossariesController, ConsoleMemoriesController, ConsoleBatchesController, ConsoleWebhookController, ReviewProgressController, ConsoleStyleProfilesController],
      providers: [ReviewProgress, MemoryFileBodyParser],
    };
  }
}
