import { ApiError } from '@platform/errors';
import type { OneTimeLink } from './one-time-link.entity';

/** What a person is told about a link that cannot be used, one sentence for each reason. */
export interface LinkRefusals {
  /** No such link: mistyped, or replaced by a newer one. */
  unknown: string;
  used: string;
  expired: string;
}

/** Whether the link found for a token can be used now. */
export const usableLink = <T extends OneTimeLink>(link: T | null): link is T => link !== null && link.usedAt === null && link.expiresAt > new Date();

/**
 * Why the link found for a token cannot be used: 404 `not_found` for none, 409 `link_used` once
 * used, 410 `link_expired` otherwise. Only for a link known to be unusable (by `usableLink`, or by
 * an update that would have used it and did not), which it does not ask again.
 */
export function linkRefusal(link: OneTimeLink | null, refusals: LinkRefusals): ApiError {
  if (!link) return ApiError.notFound(refusals.unknown);
  if (link.usedAt) return new ApiError(409, 'link_used', refusals.used);
  return new ApiError(410, 'link_expired', refusals.expired);
}
