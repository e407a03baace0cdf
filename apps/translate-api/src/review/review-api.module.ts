import { DynamicModule, Module } from '@nestjs/common';
import { ReviewModule } from '@platform/review';
import { ReviewController } from './review.controller';
import { ReviewerGuard } from './reviewer.guard';

/** /api/v1/review: reviewers claim and answer the sampled texts of review-tier jobs. */
@Module({})
export class ReviewApiModule {
  static forRoot(options: { leaseSeconds: number }): DynamicModule {
    return {
      module: ReviewApiModule,
      imports: [ReviewModule.forRoot(options)],
      controllers: [ReviewController],
      providers: [ReviewerGuard],
    };
  }
}
