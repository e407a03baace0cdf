import { ApiError } from '@platform/errors';

/** Published limits of one translate request. */
export const MAX_TEXTS = 50;
export const MAX_CHARACTERS = 30_000;

/** Over-size requests are 413, not 422: the client has to split them, not correct them. */
export function assertWithinLimits(texts: string[]): void {
  if (texts.length > MAX_TEXTS) throw ApiError.payloadTooLarge(`At most ${MAX_TEXTS} texts per request, got ${texts.length}; split them or use /api/v1/batches`);
  const characters = texts.reduce((sum, text) => sum + text.length, 0);
  if (characters > MAX_CHARACTERS) {
    throw ApiError.payloadTooLarge(`At most ${MAX_CHARACTERS} characters per request, got ${characters}; split the texts or use /api/v1/batches`);
  }
}
