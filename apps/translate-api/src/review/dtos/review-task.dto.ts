import { ApiProperty, ApiPropertyOptional } from '@nestjs/swagger';
import { ReviewTaskFieldsDto, type ClaimedTask } from '@platform/review';
import { IsIn, IsNotEmpty, IsString, MaxLength, ValidateIf } from 'class-validator';

export const REVIEW_VERDICTS = ['approve', 'edit'] as const;

/** Longer than any text a batch can hold, so every edit of one fits. */
const MAX_EDIT_LENGTH = 1_000_000;

export class ReviewVerdictDto {
  @ApiProperty({ enum: REVIEW_VERDICTS, description: '`approve` keeps the machine translation; `edit` replaces it with `translation`' })
  @IsIn(REVIEW_VERDICTS)
  verdict: (typeof REVIEW_VERDICTS)[number];

  @ApiPropertyOptional({ description: 'The corrected translation; required with verdict `edit`', maxLength: MAX_EDIT_LENGTH })
  @ValidateIf((body: ReviewVerdictDto) => body.verdict === 'edit')
  @IsString()
  @IsNotEmpty()
  @MaxLength(MAX_EDIT_LENGTH)
  translation?: string;
}

export class ReviewTaskDto extends ReviewTaskFieldsDto {
  @ApiProperty({ format: 'date-time', description: 'Answer before then; afterwards the task returns to the pool' })
  lease_until: string;

  static from(claimed: ClaimedTask): ReviewTaskDto {
    return { ...ReviewTaskFieldsDto.fields(claimed), lease_until: claimed.task.leaseUntil!.toISOString() };
  }
}

export class NextTaskResponseDto {
  @ApiProperty({ enum: [true] })
  ok: true;

  @ApiProperty({ type: ReviewTaskDto, nullable: true, description: 'null when no task in that language is open' })
  task: ReviewTaskDto | null;
}
