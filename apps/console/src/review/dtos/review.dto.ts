import { ApiProperty, ApiPropertyOptional } from '@nestjs/swagger';
import { TranslationErrorDto } from '@platform/errors';
import { ReviewTaskFieldsDto, type ClaimedTask, type Reviewer, type ReviewTask } from '@platform/review';
import { IsString, Length } from 'class-validator';

/** The console takes JSON bodies of 64 KiB; an edit of a text as long as that is edited through the public API. */
const MAX_EDIT_LENGTH = 60_000;

export class ReviewEditDto {
  @ApiProperty({ minLength: 1, maxLength: MAX_EDIT_LENGTH, description: 'The corrected translation; it keeps every token and term the task lists' })
  @IsString()
  @Length(1, MAX_EDIT_LENGTH, { message: `translation must be from 1 to ${MAX_EDIT_LENGTH} characters` })
  translation: string;
}

export class ProtectedTokenDto {
  @ApiProperty({ enum: ['variable', 'markup'] })
  kind: 'variable' | 'markup';

  @ApiProperty({ example: '{name}' })
  text: string;

  @ApiProperty({ type: 'integer', description: 'Where it starts in machine_translation (UTF-16 code units)' })
  start: number;

  @ApiProperty({ type: 'integer', description: 'Where it ends in machine_translation, exclusive' })
  end: number;
}

export class RequiredTermDto {
  @ApiProperty({ description: 'The glossary term as the source has it', example: 'sofa' })
  term: string;

  @ApiProperty({ description: 'Its binding translation, which an edit keeps', example: 'diván' })
  translation: string;

  @ApiProperty({ type: 'integer', description: 'How often an edit must have the translation, at least' })
  count: number;
}

export class ReviewTaskViewDto extends ReviewTaskFieldsDto {
  @ApiProperty({ enum: ['text', 'html', 'json'], description: 'How the texts are written; json edits stay valid JSON of the same structure' })
  format: 'text' | 'html' | 'json';

  @ApiProperty({ enum: ['claimed', 'approved', 'edited'], description: 'claimed: yours to answer until lease_until' })
  status: 'claimed' | 'approved' | 'edited';

  @ApiProperty({ type: String, format: 'date-time', nullable: true, description: 'While claimed: answer or renew the lease before then' })
  lease_until: string | null;

  @ApiProperty({ type: String, format: 'date-time', nullable: true })
  answered_at: string | null;

  @ApiProperty({ type: String, nullable: true, description: 'Your edit, when the task was answered with one' })
  translation: string | null;

  @ApiProperty({ type: [ProtectedTokenDto], description: 'Variables and markup of the machine translation: an edit keeps each exactly as often' })
  tokens: ProtectedTokenDto[];

  @ApiProperty({ type: [RequiredTermDto], description: 'Binding glossary terms an edit keeps' })
  terms: RequiredTermDto[];

  static from(claimed: ClaimedTask): ReviewTaskViewDto {
    const { task, rules } = claimed;
    return {
      ...ReviewTaskFieldsDto.fields(claimed),
      format: rules.format,
      status: task.status as ReviewTaskViewDto['status'],
      lease_until: task.leaseUntil?.toISOString() ?? null,
      answered_at: task.answeredAt?.toISOString() ?? null,
      translation: task.verdictTranslation,
      tokens: rules.tokens.map(({ kind, text, start, end }) => ({ kind, text, start, end })),
      terms: rules.terms,
    };
  }
}

export class ReviewTaskSummaryDto {
  @ApiProperty({ format: 'uuid' })
  id: string;

  @ApiProperty({ example: 'de' })
  target: string;

  @ApiProperty({ enum: ['claimed', 'approved', 'edited'] })
  status: 'claimed' | 'approved' | 'edited';

  @ApiProperty({ description: 'The first 120 characters of the source text' })
  excerpt: string;

  @ApiProperty({ type: String, format: 'date-time', nullable: true })
  lease_until: string | null;

  @ApiProperty({ type: String, format: 'date-time', nullable: true })
  answered_at: string | null;

  static from(task: ReviewTask): ReviewTaskSummaryDto {
    return {
      id: task.id,
      target: task.target,
      status: task.status as ReviewTaskSummaryDto['status'],
      excerpt: task.sourceText.slice(0, 120),
      lease_until: task.leaseUntil?.toISOString() ?? null,
      answered_at: task.answeredAt?.toISOString() ?? null,
    };
  }
}

export class ReviewerProfileDto {
  @ApiProperty({ type: [String], example: ['de', 'fr'], description: 'The target languages you review' })
  languages: string[];

  static from(reviewer: Reviewer): ReviewerProfileDto {
    return { languages: reviewer.languages };
  }
}

export class ReviewWorkspaceResponseDto {
  @ApiProperty({ enum: [true] })
  ok: true;

  @ApiProperty()
  reviewer: ReviewerProfileDto;

  @ApiProperty({ type: 'integer', description: 'How long a claim or a renewed lease holds (REVIEW_LEASE_SECONDS)' })
  lease_seconds: number;
}

export class NextReviewTaskResponseDto {
  @ApiProperty({ enum: [true] })
  ok: true;

  @ApiProperty({ type: ReviewTaskViewDto, nullable: true, description: 'null when no task in that language is open' })
  task: ReviewTaskViewDto | null;
}

export class ReviewTaskResponseDto {
  @ApiProperty({ enum: [true] })
  ok: true;

  @ApiProperty()
  task: ReviewTaskViewDto;
}

export class RecentReviewTasksResponseDto {
  @ApiProperty({ enum: [true] })
  ok: true;

  @ApiProperty({ type: [ReviewTaskSummaryDto], description: 'Held tasks first, then the latest answers first; at most the 50 latest' })
  tasks: ReviewTaskSummaryDto[];
}

export class RenewedLeaseResponseDto {
  @ApiProperty({ enum: [true] })
  ok: true;

  @ApiProperty({ format: 'uuid' })
  task: string;

  @ApiProperty({ format: 'date-time' })
  lease_until: string;
}

export class EditProblemDto {
  @ApiProperty({ enum: ['variable', 'markup', 'term', 'json'] })
  kind: 'variable' | 'markup' | 'term' | 'json';

  @ApiProperty({ description: 'The token, the term\u2019s translation, or what is wrong with the JSON' })
  text: string;

  @ApiPropertyOptional({ description: 'For a term: the source term it translates' })
  term?: string;

  @ApiPropertyOptional({ type: 'integer', description: 'How often the edit must have it' })
  expected?: number;

  @ApiPropertyOptional({ type: 'integer', description: 'How often the edit has it' })
  found?: number;
}

export class EditRefusedDto extends TranslationErrorDto {
  @ApiPropertyOptional({ type: [EditProblemDto], description: 'With an edit that lost a token or a term: each of them' })
  problems?: EditProblemDto[];
}
