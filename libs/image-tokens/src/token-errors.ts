import { ApiError } from '@platform/errors';

/**
 * Failures of token checks. The image envelope shows only the message and derives
 * `error_fatal_status` from the status (401/403 fatal), so the codes serve logs and metrics.
 */
export const TokenErrors = {
  invalidToken: (message = 'The access token is missing, unknown or revoked') => new ApiError(401, 'invalid_token', message),
  inactiveSubscription: () => new ApiError(403, 'subscription_inactive', 'The subscription of this access token is not active'),
  limitReached: (usage: number, max: number) =>
    new ApiError(402, 'limit_reached', 'The monthly conversion limit of this access token is reached', { api_limit_usage: usage, api_limit_max: max }),
};
