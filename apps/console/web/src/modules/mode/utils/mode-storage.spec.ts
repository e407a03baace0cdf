import { describe, expect, it } from 'vitest';
import type { Session } from '../../session/hooks/use-session';
import { modeOf, modeStorageKey } from './mode-storage';

const session = (activation: Session['account']['activation'], userId = 'u1'): Session =>
  ({ ok: true, csrf_token: 'c', user: { id: userId, email: 'a@example.eu', role: 'owner' }, account: { id: 'a1', name: 'Acme', activation, signup: 'complete' } }) as Session;

describe('modeOf', () => {
  it('starts an activated account on live and keeps what its user chose', () => {
    expect(modeOf(session('active'), undefined)).toBe('live');
    expect(modeOf(session('active'), 'sandbox')).toBe('sandbox');
  });

  it('keeps an account that is not activated in the sandbox, whatever was kept', () => {
    for (const activation of ['sandbox', 'pending'] as const) expect(modeOf(session(activation), 'live')).toBe('sandbox');
  });
});

describe('modeStorageKey', () => {
  it('differs per user of the same account', () => {
    expect(modeStorageKey(session('active', 'u1'))).not.toBe(modeStorageKey(session('active', 'u2')));
  });
});
