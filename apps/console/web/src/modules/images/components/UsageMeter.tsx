import { useId } from 'react';
import { formatMonth, formatNumber, formatPercent } from '../../../i18n/format';
import { useT } from '../../../i18n/i18n';
import { usageShare } from '../utils/usage-share';

/** This month's conversions against the monthly limit, as a meter and in words. */
export function UsageMeter({ month, conversions, limit }: { month: string; conversions: number; limit: number }) {
  const t = useT();
  const id = useId();
  const share = usageShare(conversions, limit);
  const text = t('images.used', { conversions: formatNumber(conversions), limit: formatNumber(limit), percent: formatPercent(share) });
  return (
    <div className="usage-meter">
      <label htmlFor={id}>{t('images.thisMonth', { month: formatMonth(month) })}</label>
      {/* Past 80 % the browser draws the meter in its warning colour. */}
      <meter id={id} min={0} max={1} low={0.8} high={0.8} optimum={0} value={share} aria-valuetext={text}>
        {formatPercent(share)}
      </meter>
      <p data-testid="image-usage">{text}</p>
    </div>
  );
}
