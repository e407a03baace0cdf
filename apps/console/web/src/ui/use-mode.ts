import { useSearchParams } from 'react-router';
import type { Session } from '../modules/session/hooks/use-session';

export type Mode = 'sandbox' | 'live';

const REMEMBERED = 'console.mode';
const asMode = (value: string | null): Mode | undefined => (value === 'sandbox' || value === 'live' ? value : undefined);

/**
 * Which of the account's two worlds the customer pages show: the page's `?mode=`, else the one
 * last chosen in this tab, else live for an activated account and sandbox otherwise.
 */
export function useMode(session: Session): [Mode, (mode: Mode) => void] {
  const [params, setParams] = useSearchParams();
  const mode = asMode(params.get('mode')) ?? asMode(sessionStorage.getItem(REMEMBERED)) ?? (session.account.activation === 'active' ? 'live' : 'sandbox');
  const choose = (next: Mode) => {
    sessionStorage.setItem(REMEMBERED, next);
    setParams(
      (current) => {
        const changed = new URLSearchParams(current);
        changed.set('mode', next);
        return changed;
      },
      { replace: true },
    );
  };
  return [mode, choose];
}
