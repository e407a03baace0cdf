import { formatNumber } from '../../../i18n/format';
import { useT } from '../../../i18n/i18n';
import type { ImportSummary as Summary } from '../hooks/use-memories';

const REASONS = ['language', 'no_source', 'untranslated', 'fuzzy', 'plural'] as const;

/** What an import did: entries added, entries whose translation it replaced, and units left out by reason. */
export function ImportSummary({ file, summary }: { file: string; summary: Summary }) {
  const t = useT();
  const skipped = REASONS.flatMap((reason) => (summary.skipped[reason] ? [[reason, summary.skipped[reason]] as const] : []));
  const skippedCount = skipped.reduce((sum, [, count]) => sum + count, 0);
  return (
    <div className="alert alert-success" role="status" data-testid="import-summary">
      <p>
        <strong>{t('memories.imported', { file, memory: summary.memory.name })}</strong>
      </p>
      <ul className="plain-list">
        <li>{t('memories.summary.added', { count: formatNumber(summary.added) })}</li>
        <li>{t('memories.summary.updated', { count: formatNumber(summary.replaced) })}</li>
        <li>
          {t('memories.summary.skipped', { count: formatNumber(skippedCount) })}
          {skipped.length > 0 && (
            <ul>
              {skipped.map(([reason, count]) => (
                <li key={reason}>{t(`memories.skip.${reason}`, { count: formatNumber(count) })}</li>
              ))}
            </ul>
          )}
        </li>
      </ul>
    </div>
  );
}
