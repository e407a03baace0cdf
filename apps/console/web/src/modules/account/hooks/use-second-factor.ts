import { useMutation, useQuery, useQueryClient } from '@tanstack/react-query';
import { api, unwrap } from '../../../api/client';
import type { components } from '../../../api/session-api';

export type SecondFactorStatus = components['schemas']['SecondFactorStatusResponseDto'];
export type TurnOffRequest = components['schemas']['DisableSecondFactorDto'];

const SECOND_FACTOR_QUERY = ['second-factor'] as const;

export function useSecondFactor() {
  return useQuery({ queryKey: SECOND_FACTOR_QUERY, queryFn: () => unwrap(api.GET('/console/api/second-factor')) });
}

/** A mutation after which the status is asked again. */
function useChange<A, R>(call: (args: A) => Promise<R>) {
  const client = useQueryClient();
  return useMutation({ mutationFn: call, onSuccess: () => client.invalidateQueries({ queryKey: SECOND_FACTOR_QUERY }) });
}

/** The secret and its otpauth:// URI, answered this once. */
export const useStartEnrolment = () => useChange(() => unwrap(api.POST('/console/api/second-factor/enrolment')));

export const useConfirmEnrolment = () => useChange((code: string) => unwrap(api.POST('/console/api/second-factor/enrolment/confirm', { body: { code } })));

export const useNewRecoveryCodes = () => useChange((code: string) => unwrap(api.POST('/console/api/second-factor/recovery-codes', { body: { code } })));

export const useTurnOff = () => useChange((body: TurnOffRequest) => unwrap(api.POST('/console/api/second-factor/disable', { body })));
