import { Module } from '@nestjs/common';
import { TypeOrmModule } from '@nestjs/typeorm';
import { BatchJob } from './batch-job.entity';
import { BatchReader } from './batch-reader.service';
import { BatchText } from './batch-text.entity';

/** Reading batch jobs alone, for apps that show them but never submit or work them off. Needs the translation DatabaseModule. */
@Module({
  imports: [TypeOrmModule.forFeature([BatchJob, BatchText])],
  providers: [BatchReader],
  exports: [BatchReader],
})
export class BatchReaderModule {}
