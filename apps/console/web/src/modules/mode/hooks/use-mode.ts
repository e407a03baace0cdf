import { createContext, useContext, useSyncExternalStore } from 'react';
import type { Session } from '../../session/hooks/use-session';
import { liveAllowed, modeOf, modeStorageKey, storedMode, storeMode, subscribeToMode, type Mode } from '../utils/mode-storage';

export type { Mode } from '../utils/mode-storage';

export interface ModeChoice {
  mode: Mode;
  /** False until the account is activated: the switch then stays on the sandbox. */
  liveAllowed: boolean;
  choose: (mode: Mode) => void;
}

/**
 * The customer's mode for the whole console, as the header's switch sets it: kept in
 * localStorage per user and account, so that it survives a reload and every open tab follows a
 * change (the storage event).
 */
export function useModeChoice(session: Session): ModeChoice {
  const key = modeStorageKey(session);
  const kept = useSyncExternalStore(subscribeToMode, () => storedMode(key));
  const allowed = liveAllowed(session);
  const choose = (mode: Mode) => {
    if (allowed) storeMode(key, mode);
  };
  return { mode: modeOf(session, kept), liveAllowed: allowed, choose };
}

export const ModeContext = createContext<Mode | undefined>(undefined);

/** Which of the account's two worlds the customer pages show: the one the header's switch is on. */
export function useMode(): Mode {
  const mode = useContext(ModeContext);
  if (!mode) throw new Error('useMode outside the signed-in layout');
  return mode;
}
