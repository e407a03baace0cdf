import { useMutation, useQuery, useQueryClient } from '@tanstack/react-query';
import { api, unwrap } from '../../../api/client';
import type { components } from '../../../api/session-api';

export type ReviewCoverage = components['schemas']['ReviewCoverageDto'];
export type PoolLanguages = components['schemas']['ReviewPoolChangeDto']['pool_languages'];

export const REVIEW_POOL = ['review-pool'] as const;

/** Who reviews the account's live review-tier jobs, per language, and the owner's choice of the platform's reviewers. */
export function useReviewPool() {
  const client = useQueryClient();
  return {
    pool: useQuery({ queryKey: REVIEW_POOL, queryFn: () => unwrap(api.GET('/console/api/review-pool')) }),
    choose: useMutation({
      mutationFn: (languages: PoolLanguages) => unwrap(api.PUT('/console/api/review-pool', { body: { pool_languages: languages } })),
      onSuccess: (answer) => client.setQueryData(REVIEW_POOL, answer),
    }),
  };
}
