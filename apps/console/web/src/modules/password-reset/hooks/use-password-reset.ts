import { useMutation, useQuery } from '@tanstack/react-query';
import { api, unwrap } from '../../../api/client';

/** Asks for a reset link; answered alike whether or not the address has a user. */
export function useRequestReset() {
  return useMutation({ mutationFn: (email: string) => unwrap(api.POST('/console/api/password-resets', { body: { email } })) });
}

/** Whether the link can still be used, asked once when its page opens; a refusal is not retried. */
export function useResetLink(token: string) {
  return useQuery({
    queryKey: ['password-reset', token],
    queryFn: () => unwrap(api.POST('/console/api/password-resets/check', { body: { token } })),
    enabled: token !== '',
    retry: false,
    staleTime: Infinity,
  });
}

/** Uses the link to set the password; signs nobody in. */
export function useCompleteReset() {
  return useMutation({ mutationFn: (body: { token: string; password: string }) => unwrap(api.POST('/console/api/password-resets/complete', { body })) });
}
