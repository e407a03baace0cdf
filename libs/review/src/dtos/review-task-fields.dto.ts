import { ApiProperty, ApiPropertyOptional } from '@nestjs/swagger';
import { Matches } from 'class-validator';
import type { ClaimedTask } from '../review-tasks.service';

export class ReviewLanguageQueryDto {
  @ApiProperty({ description: 'Target language of the task, one of the reviewer\u2019s languages', example: 'de' })
  @Matches(/^[a-z]{2}$/, { message: 'lang must be an ISO 639-1 code such as "de"' })
  lang: string;
}

/** A review task as every reviewer sees it, through a token or in the console. */
export class ReviewTaskFieldsDto {
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

  static fields({ task, sourceLanguage }: ClaimedTask): ReviewTaskFieldsDto {
    return {
      id: task.id,
      job: task.jobId,
      index: task.idx,
      ...(sourceLanguage && { source_language: sourceLanguage }),
      target: task.target,
      source_text: task.sourceText,
      machine_translation: task.machineTranslation,
    };
  }
}

export class ReviewAnswerResponseDto {
  @ApiProperty({ enum: [true] })
  ok: true;

  @ApiProperty({ format: 'uuid' })
  task: string;

  @ApiProperty({ enum: ['approved', 'edited'] })
  status: 'approved' | 'edited';
}
