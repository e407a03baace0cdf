export const REVIEW_OPTIONS = Symbol('REVIEW_OPTIONS');

export interface ReviewOptions {
  /** Share of a job's texts sampled for review (REVIEW_SAMPLE_RATE). */
  sampleRate: number;
  /** How long a claim holds before the task returns to the pool (REVIEW_LEASE_SECONDS). */
  leaseSeconds: number;
  /** After how long the tasks of sandbox jobs are approved without a reviewer (REVIEW_SANDBOX_DELAY_MS). */
  sandboxDelayMs: number;
}

export const DEFAULT_REVIEW_OPTIONS: ReviewOptions = { sampleRate: 0.1, leaseSeconds: 900, sandboxDelayMs: 2000 };
