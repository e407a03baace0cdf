import { Link } from 'react-router';
import { useT } from '../../../i18n/i18n';
import type { Session } from '../../session/hooks/use-session';
import type { ModeChoice } from '../hooks/use-mode';

/**
 * The header's switch between the account's two worlds, on for the sandbox. Until the account is
 * activated it stays on and says why; it is then aria-disabled rather than disabled, so that
 * keyboard users still reach it and hear the reason.
 */
export function ModeSwitch({ choice, session }: { choice: ModeChoice; session: Session }) {
  const t = useT();
  const sandbox = choice.mode === 'sandbox';
  const locked = !choice.liveAllowed;
  return (
    <div className="mode-switch">
      <button
        type="button"
        role="switch"
        aria-checked={sandbox}
        aria-disabled={locked || undefined}
        aria-describedby={locked ? 'mode-locked' : undefined}
        onClick={() => choice.choose(sandbox ? 'live' : 'sandbox')}
      >
        <span className="track" aria-hidden="true">
          <span className="thumb" />
        </span>
        {t('mode.switch')}
      </button>
      {locked && (
        <span id="mode-locked" className="hint">
          {t(session.account.activation === 'pending' ? 'mode.lockedPending' : 'mode.locked')} <Link to="/account">{t('mode.lockedLink')}</Link>
        </span>
      )}
    </div>
  );
}
