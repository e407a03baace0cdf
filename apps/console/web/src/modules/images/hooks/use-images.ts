import { useMutation, useQuery, useQueryClient } from '@tanstack/react-query';
import { api, ApiProblem, unwrap } from '../../../api/client';
import { USAGE_REFRESH_MS } from '../../../api/usage-refresh';
import type { components } from '../../../api/session-api';

export type ImageSubscription = components['schemas']['ImageSubscriptionDto'];
export type ImageToken = components['schemas']['ImageTokenDto'];

const SUBSCRIPTIONS = ['images', 'subscriptions'] as const;
const ofSubscription = (id: string) => ['images', 'subscriptions', id] as const;
const params = (id: string) => ({ params: { path: { id } } });

/** The console answers this code when the operator has not connected the image product. */
export const isNotConnected = (error: unknown) => error instanceof ApiProblem && error.code === 'images_not_connected';

export const useSubscriptions = () =>
  useQuery({
    queryKey: SUBSCRIPTIONS,
    queryFn: () => unwrap(api.GET('/console/api/images/subscriptions')),
    // Not connected is how this console is set up: asking again will not change it.
    retry: (count, error) => !isNotConnected(error) && count < 2,
    // Each subscription's use of its limit is in this answer.
    refetchInterval: (query) => (isNotConnected(query.state.error) ? false : USAGE_REFRESH_MS),
  });

export const useImageTokens = (id: string) => useQuery({ queryKey: [...ofSubscription(id), 'tokens'], queryFn: () => unwrap(api.GET('/console/api/images/subscriptions/{id}/tokens', params(id))) });

export const useImageUsage = (id: string) =>
  useQuery({ queryKey: [...ofSubscription(id), 'usage'], queryFn: () => unwrap(api.GET('/console/api/images/subscriptions/{id}/usage', params(id))), refetchInterval: USAGE_REFRESH_MS });

/** Creating (the secret is in that answer only) and revoking a subscription's tokens; each refreshes its list. */
export function useImageTokenActions(id: string) {
  const client = useQueryClient();
  const refresh = () => client.invalidateQueries({ queryKey: [...ofSubscription(id), 'tokens'] });
  return {
    create: useMutation({ mutationFn: () => unwrap(api.POST('/console/api/images/subscriptions/{id}/tokens', params(id))), onSuccess: refresh }),
    revoke: useMutation({
      mutationFn: (tokenId: string) => unwrap(api.DELETE('/console/api/images/subscriptions/{id}/tokens/{tokenId}', { params: { path: { id, tokenId } } })),
      onSuccess: refresh,
    }),
  };
}
