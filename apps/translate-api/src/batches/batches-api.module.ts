import { Module } from '@nestjs/common';
import { BatchesModule } from '@platform/batches';
import { ReviewersModule } from '@platform/review';
import { BatchSubmission } from './batch-submission.service';
import { BatchesController } from './batches.controller';

/** /api/v1/batches: submission and state of batch jobs, which batch-worker translates. */
@Module({
  imports: [BatchesModule, ReviewersModule],
  controllers: [BatchesController],
  providers: [BatchSubmission],
  exports: [BatchSubmission],
})
export class BatchesApiModule {}
