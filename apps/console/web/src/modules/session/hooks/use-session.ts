import { useMutation, useQuery, useQueryClient } from '@tanstack/react-query';
import { api, ApiProblem, setCsrfToken, unwrap } from '../../../api/client';
import type { components } from '../../../api/session-api';

export type Session = components['schemas']['SessionResponseDto'];
export type Role = Session['user']['role'];

export const SESSION_QUERY = ['session'] as const;

/** The signed-in user, or null when there is no session (401): never retried, never stale for long. */
export function useSession() {
  return useQuery({
    queryKey: SESSION_QUERY,
    queryFn: async (): Promise<Session | null> => {
      try {
        const session = await unwrap(api.GET('/console/api/me'));
        setCsrfToken(session.csrf_token);
        return session;
      } catch (error) {
        if (error instanceof ApiProblem && error.status === 401) return null;
        throw error;
      }
    },
    retry: false,
    staleTime: 60_000,
  });
}

/** Stores a session an answer just started (sign-in, invitation, sign-up) without asking /me again. */
export function useStartSession() {
  const client = useQueryClient();
  return (session: Session) => {
    setCsrfToken(session.csrf_token);
    client.setQueryData(SESSION_QUERY, session);
  };
}

/** Ends this session (or every session of the user) and forgets everything cached for it. */
export function useSignOut() {
  const client = useQueryClient();
  return useMutation({
    mutationFn: (everywhere: boolean) => (everywhere ? unwrap(api.DELETE('/console/api/sessions')) : unwrap(api.DELETE('/console/api/session'))),
    onSuccess: () => {
      setCsrfToken(undefined);
      client.clear();
      client.setQueryData(SESSION_QUERY, null);
    },
  });
}
