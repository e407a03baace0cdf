import { Module } from '@nestjs/common';
import { TypeOrmModule } from '@nestjs/typeorm';
import { GlossariesModule } from '@platform/glossaries';
import { OutboxModule } from '@platform/outbox';
import { WebhooksModule } from '@platform/webhooks';
import { BatchJob } from './batch-job.entity';
import { BatchProgress } from './batch-progress.service';
import { BatchReaderModule } from './batch-reader.module';
import { BatchRecovery } from './batch-recovery.service';
import { BatchText } from './batch-text.entity';
import { BatchService } from './batch.service';

/**
 * Batch jobs: `BatchService` accepts them and `BatchReader` shows them (translate-api), `BatchProgress` works them
 * off and `BatchRecovery` finds those that lost their queue entry (batch-worker). Needs the
 * translation DatabaseModule, QuotaModule and TranslationPipelineModule.
 */
@Module({
  imports: [TypeOrmModule.forFeature([BatchJob, BatchText]), BatchReaderModule, GlossariesModule, OutboxModule, WebhooksModule],
  providers: [BatchService, BatchProgress, BatchRecovery],
  exports: [BatchService, BatchProgress, BatchRecovery, BatchReaderModule],
})
export class BatchesModule {}
