/**
 * Thrown by a job handler when another attempt cannot succeed (the input itself is wrong, the
 * target no longer exists): the job fails at once and its remaining attempts are discarded.
 */
export class PermanentJobError extends Error {
  override readonly name = 'PermanentJobError';
}
