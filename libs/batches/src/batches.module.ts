import { Module } from '@nestjs/common';
import { GlossariesModule } from '@platform/glossaries';
import { OutboxModule } from '@platform/outbox';
import { StyleProfilesModule } from '@platform/style-profiles';
import { TranslationMemoryModule } from '@platform/translation-memory';
import { BatchProgressModule } from './batch-progress.module';
import { BatchReaderModule } from './batch-reader.module';
import { BatchRecovery } from './batch-recovery.service';
import { BatchService } from './batch.service';

/**
 * Batch jobs: `BatchService` accepts them and `BatchReader` shows them (translate-api), `BatchProgress` works them
 * off and `BatchRecovery` finds those that lost their queue entry (batch-worker). Needs the
 * translation DatabaseModule, QuotaModule and TranslationPipelineModule.
 */
@Module({
  imports: [BatchProgressModule, BatchReaderModule, GlossariesModule, OutboxModule, StyleProfilesModule, TranslationMemoryModule],
  providers: [BatchService, BatchRecovery],
  exports: [BatchService, BatchProgressModule, BatchRecovery, BatchReaderModule],
})
export class BatchesModule {}
