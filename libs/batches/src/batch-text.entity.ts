import { Column, Entity, PrimaryColumn } from 'typeorm';

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
}
