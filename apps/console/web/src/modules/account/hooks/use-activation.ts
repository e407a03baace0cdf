import { useMutation, useQueryClient } from '@tanstack/react-query';
import { api, unwrap } from '../../../api/client';
import type { components } from '../../../api/session-api';
import { SESSION_QUERY } from '../../session/hooks/use-session';

export type ActivationRequest = components['schemas']['ActivationRequestDto'];

/** Sends the request; the account's state in the session changes to `pending` with it. */
export function useRequestActivation() {
  const client = useQueryClient();
  return useMutation({
    mutationFn: (body: ActivationRequest) => unwrap(api.POST('/console/api/activation', { body })),
    onSuccess: () => client.invalidateQueries({ queryKey: SESSION_QUERY }),
  });
}
