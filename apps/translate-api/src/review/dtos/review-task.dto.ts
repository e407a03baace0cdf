import { ApiProperty, ApiPropertyOptional } from '@nestjs/swagger';
import type { ClaimedTask } from '@platform/review';
import { IsIn, IsNotEmpty, IsString, Matches, MaxLength, ValidateIf } from 'class-validator';

export const REVIEW_VERDICTS = ['approve', 'edit'] as const;

/** Longer than any text a batch can hold, so every edit of one fits. */
const MAX_EDIT_LENGTH = 1_000_000;

export class NextTaskQueryDto {
  @ApiProperty({ description: 'Target language of the task, one of the reviewer\u2019s languages', example: 'de' })
  @Matches(/^[a-z]{2}$/, { message: 'lang must be an ISO 639-1 code such as "de"' })
  lang: string;
}

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

export class ReviewTaskDto {
  @ApiProperty({ format: 'uuid' })
  id: string;

  @ApiProperty({ description: 'The batch job the text belongs to' })
  job: string;

  @ApiProperty({ type: 'integer', description: 'Position of the text in its batch' })
  index: number;

  @ApiPropertyOptional({ description: 'Source language of the text (given or detected)', example: 'en' })
  source_language?: string;

  @ApiProperty({ example: 'de' })
  target: string;

  @ApiProperty()
  source_text: string;

  @ApiProperty()
  machine_translation: string;

  @ApiProperty({ format: 'date-time', description: 'Answer before then; afterwards the task returns to the pool' })
  lease_until: string;

  static from({ task, sourceLanguage }: ClaimedTask): ReviewTaskDto {
    return {
      id: task.id,
      job: task.jobId,
      index: task.idx,
      ...(sourceLanguage && { source_language: sourceLanguage }),
      target: task.target,
      source_text: task.sourceText,
      machine_translation: task.machineTranslation,
      lease_until: task.leaseUntil!.toISOString(),
    };
  }
}

export class NextTaskResponseDto {
  @ApiProperty({ enum: [true] })
  ok: true;

  @ApiProperty({ type: ReviewTaskDto, nullable: true, description: 'null when no task in that language is open' })
  task: ReviewTaskDto | null;
}

export class ReviewAnswerResponseDto {
  @ApiProperty({ enum: [true] })
  ok: true;

  @ApiProperty({ format: 'uuid' })
  task: string;

  @ApiProperty({ enum: ['approved', 'edited'] })
  status: 'approved' | 'edited';
}
