import { ApiProperty, ApiPropertyOptional, IntersectionType } from '@nestjs/swagger';
import { BatchListQueryDto, BatchSummaryDto } from '@platform/batches';
import { IsIn, IsOptional } from 'class-validator';
import { ModeQueryDto } from '../../account-mode/mode-query.dto';

export class ConsoleBatchListQueryDto extends IntersectionType(ModeQueryDto, BatchListQueryDto) {}

export class BatchTextDto {
  @ApiProperty({ type: 'integer', description: 'Position in the submitted texts' })
  index: number;

  @ApiProperty({ description: 'The text as submitted' })
  source_text: string;

  @ApiProperty({ type: String, nullable: true, description: 'null until its part of the job is translated; the reviewed text once a review edited it' })
  translation: string | null;

  @ApiProperty({ type: String, nullable: true, example: 'en', description: 'The given or detected source language' })
  detected_source: string | null;

  @ApiProperty({ type: 'integer' })
  words: number;
}

export class BatchDetailResponseDto {
  @ApiProperty({ enum: [true] })
  ok: true;

  @ApiProperty()
  job: BatchSummaryDto;

  @ApiProperty({ type: String, nullable: true, description: 'Why a failed job failed' })
  error: string | null;

  @ApiProperty({ type: [BatchTextDto], description: 'The page of texts, in input order, each beside its translation' })
  texts: BatchTextDto[];

  @ApiProperty({ type: 'integer', description: 'Texts of the job in all' })
  total: number;
}

export const RESULT_FORMATS = ['json', 'csv'] as const;

export class BatchResultsQueryDto extends ModeQueryDto {
  @ApiPropertyOptional({ enum: RESULT_FORMATS, default: 'json' })
  @IsOptional()
  @IsIn(RESULT_FORMATS, { message: `format must be one of: ${RESULT_FORMATS.join(', ')}` })
  format?: (typeof RESULT_FORMATS)[number];
}

export class BatchResultsDto {
  @ApiProperty({ example: 'job_3kTq9ZbW0xYc1LmN8pQr2sUv' })
  job: string;

  @ApiProperty({ example: 'es' })
  target: string;

  @ApiProperty({ type: [BatchTextDto], description: 'Every text of the job beside its translation, in input order' })
  results: BatchTextDto[];
}
