import { Module } from '@nestjs/common';
import { TypeOrmModule } from '@nestjs/typeorm';
import { OutboxModule } from '@platform/outbox';
import { WebhooksModule } from '@platform/webhooks';
import { BatchJob } from './batch-job.entity';
import { BatchProgress } from './batch-progress.service';
import { BatchText } from './batch-text.entity';

/**
 * `BatchProgress` without what accepting a batch needs (the translation pipeline, glossaries):
 * finishing a job is all a process answering review tasks does. Needs the translation
 * DatabaseModule and QuotaModule.
 */
@Module({
  imports: [TypeOrmModule.forFeature([BatchJob, BatchText]), OutboxModule, WebhooksModule],
  providers: [BatchProgress],
  exports: [BatchProgress, TypeOrmModule],
})
export class BatchProgressModule {}
