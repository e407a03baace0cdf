import { useMutation, useQuery, useQueryClient, type QueryClient } from '@tanstack/react-query';
import { api, ApiProblem, setCsrfToken, unwrap } from '../../../api/client';
import type { components } from '../../../api/session-api';

export type Session = components['schemas']['SessionResponseDto'];
export type Role = Session['user']['role'];

export const SESSION_QUERY = ['session'] as const;

/**
 * Why this tab's session ended, which the sign-in page says: the person signed out here, or
 * everywhere from here, or it ended otherwise (signed out in another tab or elsewhere, timed
 * out, the user removed).
 */
export type SessionEnd = 'signed-out' | 'signed-out-everywhere' | 'ended';

/**
 * Whether this tab had a session, kept in the tab's sessionStorage so that a reload after the
 * session ended still knows to say so; in memory where storage is refused.
 */
const HAD_SESSION = 'console.hadSession';
let hadSessionInMemory = false;
const hadSession = () => {
  try {
    return sessionStorage.getItem(HAD_SESSION) === '1';
  } catch {
    return hadSessionInMemory;
  }
};
const setHadSession = (had: boolean) => {
  hadSessionInMemory = had;
  try {
    if (had) sessionStorage.setItem(HAD_SESSION, '1');
    else sessionStorage.removeItem(HAD_SESSION);
  } catch {
    // Storage refused (a privacy setting): memory alone, which a reload forgets.
  }
};
let endReason: SessionEnd | undefined;

/** Why the session of this tab ended, if it had one that did; undefined for someone who was never signed in here. */
export const sessionEndReason = () => endReason;

/** The tabs of this browser share the session cookie: when one sees the session end, the others hear it at once. */
const tabs = typeof BroadcastChannel === 'function' ? new BroadcastChannel('console-session') : undefined;

const startedSession = (session: Session) => {
  setHadSession(true);
  endReason = undefined;
  setCsrfToken(session.csrf_token);
};

/**
 * Forgets the session and everything cached for it, noting why: the pages behind sign-in then
 * send the person to the sign-in page, which says so. Nothing happens in a tab without a session.
 */
export function endSession(client: QueryClient, reason: SessionEnd, { tellOtherTabs = true } = {}) {
  if (!client.getQueryData(SESSION_QUERY)) return;
  setHadSession(false);
  endReason = reason;
  setCsrfToken(undefined);
  client.setQueryData(SESSION_QUERY, null);
  client.removeQueries({ predicate: (query) => query.queryKey[0] !== SESSION_QUERY[0] });
  if (tellOtherTabs) tabs?.postMessage('ended');
}

/** Ends this tab's session when another tab of the browser saw it end. */
export function followOtherTabs(client: QueryClient) {
  tabs?.addEventListener('message', () => endSession(client, 'ended', { tellOtherTabs: false }));
}

/**
 * The signed-in user, or null when there is no session (401): never retried, never stale for
 * long. While the account waits for an operator (production access, a sign-up's approval) it is
 * asked again every few seconds, so that the pages follow the decision without a reload.
 */
export function useSession() {
  return useQuery({
    queryKey: SESSION_QUERY,
    queryFn: async (): Promise<Session | null> => {
      try {
        const session = await unwrap(api.GET('/console/api/me'));
        startedSession(session);
        return session;
      } catch (error) {
        if (!(error instanceof ApiProblem && error.status === 401)) throw error;
        if (hadSession()) endReason ??= 'ended';
        setHadSession(false);
        return null;
      }
    },
    retry: false,
    staleTime: 60_000,
    refetchInterval: (query) => (waitsForOperator(query.state.data) ? WAITING_POLL_MS : false),
  });
}

const WAITING_POLL_MS = 5000;
const waitsForOperator = (session: Session | null | undefined) =>
  Boolean(session && (session.account.activation === 'pending' || session.account.signup !== 'complete'));

/** Stores a session an answer just started (sign-in, invitation, sign-up) without asking /me again. */
export function useStartSession() {
  const client = useQueryClient();
  return (session: Session) => {
    startedSession(session);
    client.setQueryData(SESSION_QUERY, session);
  };
}

/** Ends this session (or every session of the user) and forgets everything cached for it. */
export function useSignOut() {
  const client = useQueryClient();
  return useMutation({
    mutationFn: (everywhere: boolean) => (everywhere ? unwrap(api.DELETE('/console/api/sessions')) : unwrap(api.DELETE('/console/api/session'))),
    onSuccess: (_, everywhere) => endSession(client, everywhere ? 'signed-out-everywhere' : 'signed-out'),
  });
}
