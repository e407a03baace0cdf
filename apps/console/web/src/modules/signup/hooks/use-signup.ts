import { useMutation, useQueryClient } from '@tanstack/react-query';
import { api, unwrap } from '../../../api/client';
import type { components } from '../../../api/session-api';
import { SESSION_QUERY } from '../../session/hooks/use-session';

export type SignUp = components['schemas']['SignUpDto'];

/** Opens the account and signs in; the confirmation link goes by mail only. */
export function useSignUp() {
  return useMutation({ mutationFn: (body: SignUp) => unwrap(api.POST('/console/api/signup', { body })) });
}

/** Uses the mailed link; a session open in this browser shows the account's new state with it. */
export function useVerifyEmail() {
  const client = useQueryClient();
  return useMutation({
    mutationFn: (token: string) => unwrap(api.POST('/console/api/signup/verify', { body: { token } })),
    onSuccess: () => client.invalidateQueries({ queryKey: SESSION_QUERY }),
  });
}

/** Mails the signed-in owner a new link; the earlier ones stop working. */
export function useResendVerification() {
  return useMutation({ mutationFn: () => unwrap(api.POST('/console/api/signup/verification-mail')) });
}
