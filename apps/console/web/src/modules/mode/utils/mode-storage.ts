import type { Session } from '../../session/hooks/use-session';

export type Mode = 'sandbox' | 'live';

export const asMode = (value: string | null | undefined): Mode | undefined => (value === 'sandbox' || value === 'live' ? value : undefined);

/**
 * Where the mode chosen last is kept: per user of an account, so that someone else signing in on
 * the same browser starts from their own choice, not the previous person's.
 */
export const modeStorageKey = (session: Session) => `console.mode.${session.account.id}.${session.user.id}`;

/** Only an activated account has a live world to show; the others are in the sandbox whatever was kept. */
export const liveAllowed = (session: Session) => session.account.activation === 'active';

// Where storage is refused (a privacy setting), this tab alone remembers, until it reloads.
const inMemory = new Map<string, Mode>();
const listeners = new Set<() => void>();

export function storedMode(key: string): Mode | undefined {
  try {
    return asMode(localStorage.getItem(key));
  } catch {
    return inMemory.get(key);
  }
}

export function storeMode(key: string, mode: Mode): void {
  inMemory.set(key, mode);
  try {
    localStorage.setItem(key, mode);
  } catch {
    // Memory alone, as above.
  }
  // The storage event reaches the other tabs only: this one is told here.
  listeners.forEach((listener) => listener());
}

/** Calls back when this tab or another one of the browser chooses a mode. */
export function subscribeToMode(listener: () => void): () => void {
  const fromOtherTab = (event: StorageEvent) => {
    if (event.storageArea === localStorage || event.key === null) listener();
  };
  listeners.add(listener);
  window.addEventListener('storage', fromOtherTab);
  return () => {
    listeners.delete(listener);
    window.removeEventListener('storage', fromOtherTab);
  };
}

/** The kept choice where live is open to the account, else the sandbox; live by default once activated. */
export const modeOf = (session: Session, kept: Mode | undefined): Mode => (liveAllowed(session) ? (kept ?? 'live') : 'sandbox');
