import { useMutation, useQuery, useQueryClient } from '@tanstack/react-query';
import { api, unwrap } from '../../../api/client';
import type { components } from '../../../api/session-api';

export type ApiKey = components['schemas']['KeyViewDto'];
export type NewKey = components['schemas']['ConsoleCreateKeyDto'];
export type KeyLimits = components['schemas']['KeyLimitsDto'];
export type PreviousSecretWindow = NonNullable<components['schemas']['RegenerateKeyDto']['previous_secret_valid_for']>;
export const PREVIOUS_SECRET_WINDOWS: PreviousSecretWindow[] = ['none', '1h', '24h', '7d'];

const KEYS = ['keys'] as const;

export const useKeys = () => useQuery({ queryKey: KEYS, queryFn: () => unwrap(api.GET('/console/api/keys')) });

/** The key mutations; each refreshes the list, and create/regenerate answer the secret once. */
export function useKeyActions() {
  const client = useQueryClient();
  const refresh = () => client.invalidateQueries({ queryKey: KEYS });
  const params = (id: string) => ({ params: { path: { id } } });
  return {
    create: useMutation({ mutationFn: (body: NewKey) => unwrap(api.POST('/console/api/keys', { body })), onSuccess: refresh }),
    regenerate: useMutation({
      mutationFn: ({ id, keepPrevious }: { id: string; keepPrevious: PreviousSecretWindow }) =>
        unwrap(api.POST('/console/api/keys/{id}/regenerate', { ...params(id), body: { previous_secret_valid_for: keepPrevious } })),
      onSuccess: refresh,
    }),
    revoke: useMutation({ mutationFn: (id: string) => unwrap(api.DELETE('/console/api/keys/{id}', params(id))), onSuccess: refresh }),
    updateLimits: useMutation({
      mutationFn: ({ id, limits }: { id: string; limits: KeyLimits }) => unwrap(api.PATCH('/console/api/keys/{id}', { ...params(id), body: limits })),
      onSuccess: refresh,
    }),
  };
}
