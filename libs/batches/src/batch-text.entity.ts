import type { StoredTranslation, TranslationOrigin } from '@platform/translation-pipeline';
import { Column, Entity, PrimaryColumn } from 'typeorm';

/** Per sentence of a text, as decided at submission: a stored translation, `keep` (left as sent), or null for the engine. */
export type SentenceDecision = StoredTranslation | 'keep' | null;

/** One text of a batch; `translation` is set once its chunk has been translated. */
@Entity({ schema: 'translation', name: 'batch_texts' })
export class BatchText {
  @PrimaryColumn({ name: 'job_id', type: 'text' })
  jobId: string;

  /** Position in the submitted `texts`. */
  @PrimaryColumn({ type: 'integer' })
  idx: number;

  @Column({ type: 'text' })
  text: string;

  @Column({ type: 'text', nullable: true })
  translation: string | null;

  @Column({ type: 'integer' })
  words: number;

  /** The given or detected source language, fixed at submission so a resumed job translates alike. */
  @Column({ name: 'detected_source', type: 'text', nullable: true })
  detectedSource: string | null;

  /**
   * What memories decided at submission, one item per sentence (the pipeline's order), so that
   * the worker translates what was charged whatever the memories hold by then; null when the
   * engine does every sentence.
   */
  @Column({ type: 'jsonb', nullable: true })
  plan: SentenceDecision[] | null;

  /** Where most of its translated words come from; null for jobs accepted before origins were kept. */
  @Column({ type: 'text', nullable: true })
  origin: TranslationOrigin | null;

  /** With `missing: "keep"`, where it stays untranslated: JSON Pointers of its string values in JSON, '' for the text; null when all of it is translated. */
  @Column({ type: 'jsonb', nullable: true })
  untranslated: string[] | null;
}
