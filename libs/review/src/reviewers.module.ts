import { Module } from '@nestjs/common';
import { TypeOrmModule } from '@nestjs/typeorm';
import { Reviewer } from './reviewer.entity';
import { ReviewerService } from './reviewer.service';

/** Reviewers alone, without the batch machinery: what the operator CLI needs to create them. */
@Module({
  imports: [TypeOrmModule.forFeature([Reviewer])],
  providers: [ReviewerService],
  exports: [ReviewerService],
})
export class ReviewersModule {}
