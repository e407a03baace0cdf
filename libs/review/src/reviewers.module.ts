import { Module } from '@nestjs/common';
import { TypeOrmModule } from '@nestjs/typeorm';
import { ReviewRouting } from './review-routing.service';
import { Reviewer } from './reviewer.entity';
import { ReviewerService } from './reviewer.service';

/** Reviewers alone, without the batch machinery: what the operator CLI needs to create them, and who reviews which account. */
@Module({
  imports: [TypeOrmModule.forFeature([Reviewer])],
  providers: [ReviewerService, ReviewRouting],
  exports: [ReviewerService, ReviewRouting],
})
export class ReviewersModule {}
