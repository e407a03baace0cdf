import { ApiProperty } from '@nestjs/swagger';
import { BATCH_STATUSES, type BatchStatus } from '@platform/batches';
import type { JobReviewProgress } from '@platform/review';

export class JobReviewProgressDto {
  @ApiProperty({ example: 'job_3kTq9ZbW0xYc1LmN8pQr2sUv' })
  job: string;

  @ApiProperty({ enum: BATCH_STATUSES, description: '`processing` until every sampled text is answered' })
  status: BatchStatus;

  @ApiProperty({ example: 'de' })
  target: string;

  @ApiProperty({ type: 'integer', description: 'Texts of the job' })
  texts: number;

  @ApiProperty({ format: 'date-time' })
  created_at: Date;

  @ApiProperty({ type: String, format: 'date-time', nullable: true })
  completed_at: Date | null;

  @ApiProperty({ type: 'integer', description: 'Sampled texts not answered yet (zero while the job is still being machine-translated), those in review included' })
  pending: number;

  @ApiProperty({ type: 'integer', description: 'Of the pending ones, claimed by a reviewer right now' })
  in_review: number;

  @ApiProperty({ type: 'integer' })
  approved: number;

  @ApiProperty({ type: 'integer', description: 'Corrected by a reviewer; the result holds the correction' })
  edited: number;

  static from(progress: JobReviewProgress): JobReviewProgressDto {
    return {
      job: progress.job,
      status: progress.status,
      target: progress.target,
      texts: progress.texts,
      created_at: progress.createdAt,
      completed_at: progress.completedAt,
      pending: progress.pending,
      in_review: progress.inReview,
      approved: progress.approved,
      edited: progress.edited,
    };
  }
}

export class ReviewProgressResponseDto {
  @ApiProperty({ enum: [true] })
  ok: true;

  @ApiProperty({ type: [JobReviewProgressDto], description: 'Review-tier jobs of the mode, newest first' })
  jobs: JobReviewProgressDto[];

  @ApiProperty({ type: 'integer', description: 'Review-tier jobs of the mode in all' })
  total: number;
}
