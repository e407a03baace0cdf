import { Module } from '@nestjs/common';
import { BatchesModule } from '@platform/batches';
import { BatchesController } from './batches.controller';

/** /api/v1/batches: submission and state of batch jobs, which batch-worker translates. */
@Module({
  imports: [BatchesModule],
  controllers: [BatchesController],
})
export class BatchesApiModule {}
