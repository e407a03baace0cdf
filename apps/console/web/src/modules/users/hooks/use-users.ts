import { useMutation, useQuery, useQueryClient } from '@tanstack/react-query';
import { api, unwrap } from '../../../api/client';
import type { components } from '../../../api/session-api';
import { REVIEW_POOL } from './use-review-pool';

export type ConsoleUser = components['schemas']['UserViewDto'];
export type Role = ConsoleUser['role'];
export type Invitation = components['schemas']['InviteUserDto'];
export type OpenInvitation = components['schemas']['InvitationViewDto'];
export type Languages = components['schemas']['ChangeUserDto']['languages'];

const USERS = ['users'] as const;

export const useUsers = () => useQuery({ queryKey: USERS, queryFn: () => unwrap(api.GET('/console/api/users')) });

export function useUserActions() {
  const client = useQueryClient();
  // A reviewer's languages or role change who reviews what, too.
  const refresh = () => Promise.all([client.invalidateQueries({ queryKey: USERS }), client.invalidateQueries({ queryKey: REVIEW_POOL })]);
  return {
    invite: useMutation({ mutationFn: (body: Invitation) => unwrap(api.POST('/console/api/users/invitations', { body })), onSuccess: refresh }),
    changeRole: useMutation({
      mutationFn: ({ id, role }: { id: string; role: Role }) => unwrap(api.PATCH('/console/api/users/{id}', { params: { path: { id } }, body: { role } })),
      onSuccess: refresh,
    }),
    setLanguages: useMutation({
      mutationFn: ({ id, languages }: { id: string; languages: Languages }) => unwrap(api.PATCH('/console/api/users/{id}', { params: { path: { id } }, body: { languages } })),
      onSuccess: refresh,
    }),
    resendInvitation: useMutation({
      mutationFn: (id: string) => unwrap(api.POST('/console/api/users/invitations/{id}/resend', { params: { path: { id } } })),
      onSuccess: refresh,
    }),
    revokeInvitation: useMutation({
      mutationFn: (id: string) => unwrap(api.DELETE('/console/api/users/invitations/{id}', { params: { path: { id } } })),
      onSuccess: refresh,
    }),
    remove: useMutation({ mutationFn: (id: string) => unwrap(api.DELETE('/console/api/users/{id}', { params: { path: { id } } })), onSuccess: refresh }),
  };
}
