import { formatNumber } from '../../../i18n/format';
import { useT } from '../../../i18n/i18n';
import type { BatchSummary } from '../hooks/use-batches';

/** A job's state in words and its progress as a bar that screen readers read as "n of m texts". */
export function BatchStatus({ job }: { job: BatchSummary }) {
  const t = useT();
  const { done, total } = job.progress;
  const label = t('batches.progressOf', { done: formatNumber(done), total: formatNumber(total) });
  return (
    <span className="batch-status">
      <span className={`status status-${job.status}`} data-testid="batch-status">
        {t(`batches.status.${job.status}`)}
      </span>
      <progress max={total} value={done} aria-label={label} />
      <span className="hint">{label}</span>
    </span>
  );
}
