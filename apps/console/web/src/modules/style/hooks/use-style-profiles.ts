import { keepPreviousData, useMutation, useQuery, useQueryClient } from '@tanstack/react-query';
import { api, unwrap } from '../../../api/client';
import type { components } from '../../../api/session-api';
import type { Mode } from '../../mode/hooks/use-mode';

export type StyleProfile = components['schemas']['StyleProfileDto'];
export type StyleProfileInput = components['schemas']['StyleProfileInputDto'];
export type TypographyRule = keyof StyleProfile['typography'];
export type Formality = StyleProfile['formality'];

const STYLE_PROFILES = ['style-profiles'] as const;

export const useStyleProfiles = (mode: Mode) =>
  useQuery({ queryKey: [...STYLE_PROFILES, mode], queryFn: () => unwrap(api.GET('/console/api/style-profiles', { params: { query: { mode } } })), placeholderData: keepPreviousData });

/** Creation, replacement and deletion; each refreshes the list. */
export function useStyleProfileActions(mode: Mode) {
  const client = useQueryClient();
  const refresh = () => client.invalidateQueries({ queryKey: STYLE_PROFILES });
  const query = { mode };
  return {
    create: useMutation({ mutationFn: (body: StyleProfileInput) => unwrap(api.POST('/console/api/style-profiles', { params: { query }, body })), onSuccess: refresh }),
    replace: useMutation({
      mutationFn: ({ id, body }: { id: string; body: StyleProfileInput }) => unwrap(api.PUT('/console/api/style-profiles/{id}', { params: { path: { id }, query }, body })),
      onSuccess: refresh,
    }),
    remove: useMutation({ mutationFn: (id: string) => unwrap(api.DELETE('/console/api/style-profiles/{id}', { params: { path: { id }, query } })), onSuccess: refresh }),
  };
}
