import { bearerToken, invalidKey, isWellFormedApiKey, MISSING_KEY_MESSAGE } from '@platform/auth';
import { isWellFormedReviewerToken } from '@platform/review';
import type { FastifyRequest } from 'fastify';
import { invalidReviewerToken } from '../review/reviewer.guard';

const REVIEW_PATH = '/api/v1/review/';

/**
 * Runs before a request body is read (service-kit's `credentials.beforeBody`): every API route
 * needs a bearer credential, so a request with a body but without a credential of the right
 * form (an API key, or a reviewer token on review routes) is refused at once, unread. The
 * credential itself is looked up by the guards as before.
 */
export function checkCredentialsBeforeBody(request: FastifyRequest): void {
  if (!request.url.startsWith('/api/')) return;
  const token = bearerToken(request.headers.authorization);
  if (request.url.startsWith(REVIEW_PATH)) {
    if (!token || !isWellFormedReviewerToken(token)) throw invalidReviewerToken();
    return;
  }
  if (!request.headers.authorization) throw invalidKey(MISSING_KEY_MESSAGE);
  if (!token || !isWellFormedApiKey(token)) throw invalidKey();
}
