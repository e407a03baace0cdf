import { ApiProperty, ApiPropertyOptional } from '@nestjs/swagger';
import { TranslationErrorDto } from '@platform/errors';
import { ReviewTaskFieldsDto, type ClaimedTask, type Reviewer, type ReviewTask, type TaskSuggestions } from '@platform/review';
import { DoNotTranslateEntryDto } from '@platform/style-profiles';
import { SuggestionDto } from '@platform/translation-memory';
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
  @ApiProperty({ enum: ['variable', 'markup', 'do_not_translate'], description: "do_not_translate: a term of the job's style profile, kept as it is" })
  kind: 'variable' | 'markup' | 'do_not_translate';

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

export class ReviewStyleDto {
  @ApiProperty({ example: 'Marketing, France' })
  name: string;

  @ApiProperty({ description: 'Free text for reviewers; may be empty' })
  notes: string;
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

  @ApiProperty({ type: [DoNotTranslateEntryDto], description: "The do-not-translate terms of the job's style profile: found in an edit as in the machine translation" })
  do_not_translate: DoNotTranslateEntryDto[];

  @ApiProperty({ type: ReviewStyleDto, nullable: true, description: 'The style profile the job was translated with, and its notes for reviewers; null without one' })
  style: ReviewStyleDto | null;

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
      do_not_translate: (rules.doNotTranslate ?? []).map(({ term, caseSensitive }) => ({ term, case_sensitive: caseSensitive })),
      style: claimed.style,
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
  @ApiProperty({ enum: ['variable', 'markup', 'do_not_translate', 'term', 'json'] })
  kind: 'variable' | 'markup' | 'do_not_translate' | 'term' | 'json';

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

export class SuggestedSegmentDto {
  @ApiProperty({ description: 'The segment of the source text, as it stands there', example: 'Save the file.' })
  text: string;

  @ApiProperty({ type: 'integer', description: 'In a JSON text, which string value (in text order, notes left out); 0 otherwise' })
  value: number;

  @ApiProperty({ type: 'integer', description: 'Which paragraph of the text or value (blank lines part them)' })
  paragraph: number;

  @ApiProperty({ type: [SuggestionDto], description: 'Exact matches first, then fuzzy ones by similarity; empty when the memories hold nothing close' })
  suggestions: SuggestionDto[];
}

export class TaskSuggestionsResponseDto {
  @ApiProperty({ enum: [true] })
  ok: true;

  @ApiProperty({ type: String, nullable: true, description: 'The source language the memories were searched in; null when unknown (then no segments)' })
  source_language: string | null;

  @ApiProperty({ type: [SuggestedSegmentDto], description: 'The source text segment by segment, each with its suggestions; at most 20 segments' })
  segments: SuggestedSegmentDto[];

  static from(found: TaskSuggestions): TaskSuggestionsResponseDto {
    return {
      ok: true,
      source_language: found.sourceLanguage,
      segments: found.segments.map(({ segment, suggestions }) => ({ ...segment, suggestions: suggestions.map((suggestion) => SuggestionDto.from(suggestion)) })),
    };
  }
}
