import { formalityReport, type FormalityReport } from '@platform/style-profiles';
import type { MissingHandling, TranslationFormat, TranslationOrigin, TranslationTier } from '@platform/translation-pipeline';
import type { BatchJob, BatchStatus } from './batch-job.entity';
import type { BatchText } from './batch-text.entity';

/** What POST /api/v1/batches accepts; the API's DTO validates the shape. */
export interface BatchRequest {
  texts: string[];
  target: string;
  source?: string;
  format?: TranslationFormat;
  tier?: TranslationTier;
  /** Glossary id of the caller's account. */
  glossary?: string;
  /** Format html: translate text attributes; default true. */
  html_attributes?: boolean;
  /** False: the engine alone, without memories or the catalog. */
  memory?: boolean;
  /** Only these memories of the account, the first listed winning. */
  memories?: string[];
  /** `keep`: a pair without an engine is accepted; what no memory translates stays as sent. */
  missing?: MissingHandling;
  /** A style profile of the caller's mode, or `none`; the mode's default profile when absent. */
  style_profile?: string;
}

export interface BatchResult {
  index: number;
  translation: string;
  detected_source: string;
  words: number;
  /** Where most of its words were translated; absent for jobs accepted before origins were kept. */
  origin?: TranslationOrigin;
  /** With `missing: "keep"`: whether some of it came back as sent. */
  untranslated?: boolean;
  /** With `missing: "keep"` in format json: the JSON Pointers of its string values that came back as sent. */
  untranslated_paths?: string[];
}

/**
 * Who reviews a job of tier review: nobody in sandbox, where review is simulated; the account's
 * own reviewers; or those and the platform's, as the account chose for the language at submission.
 */
export const REVIEWERS_OF_JOB = ['simulated', 'account', 'account_and_platform'] as const;
export type ReviewersOfJob = (typeof REVIEWERS_OF_JOB)[number];

export function reviewersOf(job: Pick<BatchJob, 'tier' | 'sandbox' | 'reviewPool'>): ReviewersOfJob | undefined {
  if (job.tier !== 'review') return undefined;
  return job.sandbox ? 'simulated' : job.reviewPool ? 'account_and_platform' : 'account';
}

/** GET /api/v1/batches/{job}; results only once the job is done. */
export interface BatchView {
  ok: true;
  job: string;
  status: BatchStatus;
  target: string;
  tier: TranslationTier;
  /** Tier review only. */
  reviewed_by?: ReviewersOfJob;
  /** The style profile the job was accepted with. */
  style_profile?: string;
  /** With the profile's formality: which engines applied it so far, and which could not. */
  formality?: FormalityReport;
  created_at: string;
  completed_at?: string;
  expires_at?: string;
  progress: { done: number; total: number };
  words: number;
  cost_cents: number;
  results?: BatchResult[];
  error?: string;
}

/** A job in GET /api/v1/batches: its state, without texts or results. */
export interface BatchSummary {
  id: string;
  status: BatchStatus;
  progress: { done: number; total: number };
  target: string;
  tier: TranslationTier;
  /** Tier review only. */
  reviewed_by?: ReviewersOfJob;
  format: TranslationFormat;
  words: number;
  cost_cents: number;
  created_at: string;
  completed_at: string | null;
}

/** A page of GET /api/v1/batches; `next_cursor` is null on the last page. */
export interface BatchPage {
  batches: BatchSummary[];
  next_cursor: string | null;
}

/** The columns a summary is made of. */
export const SUMMARY_COLUMNS = ['id', 'status', 'target', 'tier', 'sandbox', 'reviewPool', 'format', 'total', 'doneCount', 'words', 'costCents', 'createdAt', 'completedAt'] as const;

export function toSummary(job: Pick<BatchJob, (typeof SUMMARY_COLUMNS)[number]>): BatchSummary {
  return {
    id: job.id,
    status: job.status,
    progress: { done: job.doneCount, total: job.total },
    target: job.target,
    tier: job.tier,
    ...(job.tier === 'review' && { reviewed_by: reviewersOf(job) }),
    format: job.format,
    words: job.words,
    cost_cents: job.costCents,
    created_at: job.createdAt.toISOString(),
    completed_at: job.completedAt?.toISOString() ?? null,
  };
}

/** The style profile a job was accepted with and, with its formality, which engines applied it. */
export function styleOf(job: Pick<BatchJob, 'styleProfile' | 'formalityAppliedBy' | 'formalityIgnoredBy'>): Pick<BatchView, 'style_profile' | 'formality'> {
  const profile = job.styleProfile;
  if (!profile) return {};
  return {
    style_profile: profile.id,
    ...(profile.formality !== 'default' && { formality: formalityReport(profile.formality, { appliedBy: job.formalityAppliedBy, ignoredBy: job.formalityIgnoredBy }) }),
  };
}

/** `data` of the `batch.completed` webhook event. */
export interface BatchCompletedData extends Pick<BatchView, 'style_profile' | 'formality'> {
  job: string;
  status: Exclude<BatchStatus, 'processing'>;
  target: string;
  tier: TranslationTier;
  words: number;
  cost_cents: number;
  results: BatchResult[];
  error?: string;
}

/** The columns results are made of; the source texts stay in the database. */
export const RESULT_COLUMNS = { idx: true, translation: true, detectedSource: true, words: true, origin: true, untranslated: true } as const;

/** How a job's results say what came back untranslated: only with `missing: "keep"`, paths only in JSON. */
export type ResultShape = Pick<BatchJob, 'missing' | 'format'>;

export function toResults(job: ResultShape, texts: Pick<BatchText, 'idx' | 'translation' | 'detectedSource' | 'words' | 'origin' | 'untranslated'>[]): BatchResult[] {
  return texts.map((text) => ({
    index: text.idx,
    translation: text.translation ?? '',
    detected_source: text.detectedSource ?? '',
    words: text.words,
    ...(text.origin && { origin: text.origin }),
    ...(job.missing === 'keep' && { untranslated: text.untranslated !== null }),
    ...(job.missing === 'keep' && job.format === 'json' && { untranslated_paths: text.untranslated ?? [] }),
  }));
}

export function toView(job: BatchJob, texts: Parameters<typeof toResults>[1] | undefined): BatchView {
  return {
    ok: true,
    job: job.id,
    status: job.status,
    target: job.target,
    tier: job.tier,
    ...(job.tier === 'review' && { reviewed_by: reviewersOf(job) }),
    ...styleOf(job),
    created_at: job.createdAt.toISOString(),
    ...(job.completedAt && { completed_at: job.completedAt.toISOString() }),
    ...(job.expiresAt && { expires_at: job.expiresAt.toISOString() }),
    progress: { done: job.doneCount, total: job.total },
    words: job.words,
    cost_cents: job.costCents,
    ...(texts && { results: toResults(job, texts) }),
    ...(job.error !== null && { error: job.error }),
  };
}
