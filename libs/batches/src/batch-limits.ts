import { ApiError } from '@platform/errors';

/** Published limits of one batch. */
export const MAX_BATCH_TEXTS = 1000;
export const MAX_BATCH_CHARACTERS = 1_000_000;

/** Texts prepared (validated, detected, counted) and later translated together. */
export const BATCH_CHUNK_SIZE = 50;

/** Over-size batches are 413, like over-size translate requests: the client has to split them. */
export function assertBatchWithinLimits(texts: string[]): void {
  if (texts.length > MAX_BATCH_TEXTS) throw ApiError.payloadTooLarge(`At most ${MAX_BATCH_TEXTS} texts per batch, got ${texts.length}; submit several batches`);
  const characters = texts.reduce((sum, text) => sum + text.length, 0);
  if (characters > MAX_BATCH_CHARACTERS) {
    throw ApiError.payloadTooLarge(`At most ${MAX_BATCH_CHARACTERS} characters per batch, got ${characters}; submit several batches`);
  }
}

export function chunksOf<T>(items: readonly T[], size = BATCH_CHUNK_SIZE): T[][] {
  return Array.from({ length: Math.ceil(items.length / size) }, (_, n) => items.slice(n * size, (n + 1) * size));
}
