import { DynamicModule, Module } from '@nestjs/common';
import { TypeOrmModule } from '@nestjs/typeorm';
import { BatchesModule } from '@platform/batches';
import { DEFAULT_REVIEW_OPTIONS, REVIEW_OPTIONS, type ReviewOptions } from './review-options';
import { ReviewTask } from './review-task.entity';
import { ReviewTasks } from './review-tasks.service';
import { ReviewersModule } from './reviewers.module';

/** Review tasks and reviewers. Needs what BatchesModule needs (translation database, quota, pipeline). */
@Module({})
export class ReviewModule {
  static forRoot(options: Partial<ReviewOptions>): DynamicModule {
    return {
      module: ReviewModule,
      imports: [TypeOrmModule.forFeature([ReviewTask]), BatchesModule, ReviewersModule],
      providers: [{ provide: REVIEW_OPTIONS, useValue: { ...DEFAULT_REVIEW_OPTIONS, ...options } }, ReviewTasks],
      exports: [ReviewTasks, REVIEW_OPTIONS, ReviewersModule],
    };
  }
}
