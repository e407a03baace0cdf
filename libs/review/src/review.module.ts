import { DynamicModule, Module } from '@nestjs/common';
import { TypeOrmModule } from '@nestjs/typeorm';
import { BatchProgressModule } from '@platform/batches';
import { TranslationMemoryModule } from '@platform/translation-memory';
import { DEFAULT_REVIEW_OPTIONS, REVIEW_OPTIONS, type ReviewOptions } from './review-options';
import { ReviewTask } from './review-task.entity';
import { ReviewTasks } from './review-tasks.service';
import { ReviewersModule } from './reviewers.module';

/** Review tasks and reviewers; verdicts teach the translation memory. Needs the translation database and QuotaModule. */
@Module({})
export class ReviewModule {
  static forRoot(options: Partial<ReviewOptions>): DynamicModule {
    return {
      module: ReviewModule,
      imports: [TypeOrmModule.forFeature([ReviewTask]), BatchProgressModule, ReviewersModule, TranslationMemoryModule],
      providers: [{ provide: REVIEW_OPTIONS, useValue: { ...DEFAULT_REVIEW_OPTIONS, ...options } }, ReviewTasks],
      exports: [ReviewTasks, REVIEW_OPTIONS, ReviewersModule],
    };
  }
}
