import { ApiProperty, ApiPropertyOptional } from '@nestjs/swagger';
import { FormalityReportDto } from '@platform/style-profiles';
import { BATCH_STATUSES, type BatchStatus } from '../batch-job.entity';
import { REVIEWERS_OF_JOB, type ReviewersOfJob } from '../batch-view';
import { TRANSLATION_FORMATS, TRANSLATION_ORIGINS, TRANSLATION_TIERS, type TranslationOrigin } from '@platform/translation-pipeline';

const REVIEWED_BY_DOCS = {
  enum: REVIEWERS_OF_JOB,
  description:
    "Tier review only: who reviews the job's sampled texts. `simulated` in sandbox; `account`: the account's own reviewers; " +
    "`account_and_platform`: those and the platform's, as the account chose for the target language when the job was submitted",
};

export class BatchAcceptedDto {
  @ApiProperty({ enum: [true] })
  ok: true;

  @ApiProperty({ description: 'Job id, `job_` followed by 24 random characters', example: 'job_3kTq9ZbW0xYc1LmN8pQr2sUv' })
  job: string;

  @ApiProperty({ enum: ['processing'] })
  status: 'processing';
}

export class BatchProgressDto {
  @ApiProperty({ type: 'integer', description: 'Texts translated so far' })
  done: number;

  @ApiProperty({ type: 'integer' })
  total: number;
}

export class BatchResultDto {
  @ApiProperty({ type: 'integer', description: 'Position of the text in the submitted `texts`' })
  index: number;

  @ApiProperty()
  translation: string;

  @ApiProperty({ description: 'The given or detected source language of the text', example: 'en' })
  detected_source: string;

  @ApiProperty({ type: 'integer', description: 'Words charged for the text: those translated' })
  words: number;

  @ApiPropertyOptional({
    enum: TRANSLATION_ORIGINS,
    description:
      'Where most of its translated words come from: `memory` (your memories), `catalog`, `engine`; `none` when nothing of it was translated. ' +
      'Absent for jobs accepted before origins were recorded',
  })
  origin?: TranslationOrigin;

  @ApiPropertyOptional({ description: 'Jobs with missing "keep": whether some of the text came back as sent, no memory holding it and no engine doing the pair' })
  untranslated?: boolean;

  @ApiPropertyOptional({ type: [String], example: ['/menu/close'], description: 'Jobs with missing "keep" in format json: the JSON Pointers of the string values that came back as sent' })
  untranslated_paths?: string[];
}

export class BatchJobDto {
  @ApiProperty({ enum: [true] })
  ok: true;

  @ApiProperty({ example: 'job_3kTq9ZbW0xYc1LmN8pQr2sUv' })
  job: string;

  @ApiProperty({ enum: BATCH_STATUSES, description: '`failed`: the engine kept failing; the words were refunded' })
  status: BatchStatus;

  @ApiProperty({ example: 'es' })
  target: string;

  @ApiProperty({ enum: TRANSLATION_TIERS })
  tier: string;

  @ApiPropertyOptional(REVIEWED_BY_DOCS)
  reviewed_by?: ReviewersOfJob;

  @ApiPropertyOptional({ format: 'uuid', description: 'The style profile the job was accepted with (named, or the default profile of the mode), applied as it was then' })
  style_profile?: string;

  @ApiPropertyOptional({
    type: FormalityReportDto,
    description: "When the job's style profile asks for formality more or less: the engines that translated its texts with it so far, and those without it",
  })
  formality?: FormalityReportDto;

  @ApiProperty({ format: 'date-time' })
  created_at: string;

  @ApiPropertyOptional({ format: 'date-time', description: 'When the job became done or failed' })
  completed_at?: string;

  @ApiPropertyOptional({ format: 'date-time', description: 'completed_at + 30 days; afterwards the job is deleted and answers 404' })
  expires_at?: string;

  @ApiProperty({ type: BatchProgressDto })
  progress: BatchProgressDto;

  @ApiProperty({ type: 'integer', description: 'Words of all texts, charged at submission (with missing "keep": those translated)' })
  words: number;

  @ApiProperty({ type: 'integer', description: 'ceil(words × price per 1,000 words of the tier / 1,000)' })
  cost_cents: number;

  @ApiPropertyOptional({ type: [BatchResultDto], description: 'When `done`: one per text, in input order' })
  results?: BatchResultDto[];

  @ApiPropertyOptional({ description: 'When `failed`: why' })
  error?: string;
}

/** A job in the list: its state, without texts or results (GET /api/v1/batches/{job} has those). */
export class BatchSummaryDto {
  @ApiProperty({ example: 'job_3kTq9ZbW0xYc1LmN8pQr2sUv' })
  id: string;

  @ApiProperty({ enum: BATCH_STATUSES })
  status: BatchStatus;

  @ApiProperty({ type: BatchProgressDto })
  progress: BatchProgressDto;

  @ApiProperty({ example: 'es' })
  target: string;

  @ApiProperty({ enum: TRANSLATION_TIERS })
  tier: string;

  @ApiPropertyOptional(REVIEWED_BY_DOCS)
  reviewed_by?: ReviewersOfJob;

  @ApiProperty({ enum: TRANSLATION_FORMATS })
  format: string;

  @ApiProperty({ type: 'integer', description: 'Words of all texts, charged at submission' })
  words: number;

  @ApiProperty({ type: 'integer' })
  cost_cents: number;

  @ApiProperty({ format: 'date-time' })
  created_at: string;

  @ApiProperty({ type: 'string', format: 'date-time', nullable: true, description: 'When the job became done or failed; null while processing' })
  completed_at: string | null;
}

export class BatchListResponseDto {
  @ApiProperty({ enum: [true] })
  ok: true;

  @ApiProperty({ type: [BatchSummaryDto], description: "The account's jobs of the key's mode (sandbox or live), newest first" })
  batches: BatchSummaryDto[];

  @ApiProperty({ type: 'string', nullable: true, description: 'Pass as `cursor` for the next page; null on the last page' })
  next_cursor: string | null;
}
