import { useMutation, useQuery, useQueryClient } from '@tanstack/react-query';
import { api, unwrap } from '../../../api/client';
import type { components } from '../../../api/session-api';

export type ApiKey = components['schemas']['KeyViewDto'];
export type NewKey = components['schemas']['CreateKeyDto'];
export type KeyLimits = components['schemas']['KeyLimitsDto'];

const KEYS = ['keys'] as const;

export const useKeys = () => useQuery({ queryKey: KEYS, queryFn: () => unwrap(api.GET('/console/api/keys')) });

/** The key mutations; each refreshes the list, and create/regenerate answer the secret once. */
export function useKeyActions() {
  const client = useQueryClient();
  const refresh = () => client.invalidateQueries({ queryKey: KEYS });
  const params = (id: string) => ({ params: { path: { id } } });
  return {
    create: useMutation({ mutationFn: (body: NewKey) => unwrap(api.POST('/console/api/keys', { body })), onSuccess: refresh }),
    regenerate: useMutation({ mutationFn: (id: string) => unwrap(api.POST('/console/api/keys/{id}/regenerate', params(id))), onSuccess: refresh }),
    revoke: useMutation({ mutationFn: (id: string) => unwrap(api.DELETE('/console/api/keys/{id}', params(id))), onSuccess: refresh }),
    updateLimits: useMutation({
      mutationFn: ({ id, limits }: { id: string; limits: KeyLimits }) => unwrap(api.PATCH('/console/api/keys/{id}', { ...params(id), body: limits })),
      onSuccess: refresh,
    }),
  };
}
