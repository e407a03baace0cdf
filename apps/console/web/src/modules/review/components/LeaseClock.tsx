import { formatDateTime } from '../../../i18n/format';
import { useT } from '../../../i18n/i18n';
import { formatRemaining, warnBeforeMs } from '../utils/lease-clock';

interface LeaseClockProps {
  leaseUntil: string;
  leaseSeconds: number;
  /** The ticking clock of the page, which also disables the answers once the lease is over. */
  now: number;
  onRenew: () => void;
  renewing: boolean;
  onTakeNext: () => void;
}

/**
 * What is left of the lease, ticking, with a button to renew it. A warning is announced once
 * before the lease runs out, and another when it has; the countdown itself is not read out.
 */
export function LeaseClock({ leaseUntil, leaseSeconds, now, onRenew, renewing, onTakeNext }: LeaseClockProps) {
  const t = useT();
  const remaining = Date.parse(leaseUntil) - now;
  const warnBefore = warnBeforeMs(leaseSeconds);
  return (
    <div className="lease">
      <div className="lease-clock">
        <label htmlFor="lease-progress">{t('workspace.lease')}</label>
        <progress id="lease-progress" max={leaseSeconds} value={Math.max(0, remaining / 1000)} />
        <time dateTime={leaseUntil} title={formatDateTime(leaseUntil)} data-testid="lease-left">
          {t('workspace.leaseLeft', { time: formatRemaining(remaining) })}
        </time>
        <button type="button" className="btn" onClick={onRenew} disabled={renewing || remaining <= 0}>
          {t('workspace.renew')}
        </button>
      </div>
      {remaining <= 0 ? (
        <div className="alert alert-error" role="alert">
          {t('workspace.leaseLost')}{' '}
          <button type="button" className="btn" onClick={onTakeNext}>
            {t('workspace.takeNext')}
          </button>
        </div>
      ) : (
        remaining <= warnBefore && (
          <div className="alert alert-warning" role="alert">
            {t('workspace.leaseWarning', { seconds: Math.round(warnBefore / 1000) })}
          </div>
        )
      )}
    </div>
  );
}
