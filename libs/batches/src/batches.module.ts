import { Module } from '@nestjs/common';
import { TypeOrmModule } from '@nestjs/typeorm';
import { GlossariesModule } from '@platform/glossaries';
import { OutboxModule } from '@platform/outbox';
import { WebhooksModule } from '@platform/webhooks';
import { BatchJob } from './batch-job.entity';
import { BatchProgress } from './batch-progress.service';
import { BatchText } from './batch-text.entity';
import { BatchService } from './batch.service';

/**
 * Batch jobs: `BatchService` accepts and shows them (translate-api), `BatchProgress` works them
 * off (batch-worker). Needs the translation DatabaseModule, QuotaModule and TranslationPipelineModule.
 */
@Module({
  imports: [TypeOrmModule.forFeature([BatchJob, BatchText]), GlossariesModule, OutboxModule, WebhooksModule],
  providers: [BatchService, BatchProgress],
  exports: [BatchService, BatchProgress],
})
export class BatchesModule {}
