import { Link } from 'react-router';
import { formatDateTime, formatNumber } from '../../../i18n/format';
import { useT } from '../../../i18n/i18n';
import { ApiErrorMessage } from '../../../ui/ApiErrorMessage';
import { Pager } from '../../../ui/Pager';
import { DataTable } from '../../../ui/DataTable';
import type { Mode } from '../../mode/hooks/use-mode';
import { useOffsetPages } from '../../../ui/use-page';
import { useReviewProgress } from '../hooks/use-batches';

/** Owners follow how far reviewers have come with each review-tier job. */
export function ReviewProgressSection({ mode }: { mode: Mode }) {
  const t = useT();
  const { range, pager } = useOffsetPages();
  const { data, error } = useReviewProgress(mode, range);
  return (
    <section aria-labelledby="review-progress">
      <h2 id="review-progress">{t('review.title')}</h2>
      <p className="intro">{t('review.intro')}</p>
      <ApiErrorMessage error={error} />
      {data && data.jobs.length === 0 && <p>{t('review.none')}</p>}
      {data && data.jobs.length > 0 && (
        <DataTable
          label={t('review.jobs')}
          rows={data.jobs}
          rowKey={(job) => job.job}
          columns={[
            {
              header: t('batches.job'),
              rowHeader: true,
              cell: (job) => (
                <Link to={`/batches/${job.job}`}>
                  <code>{job.job}</code>
                </Link>
              ),
            },
            { header: t('batches.status'), cell: (job) => t(`batches.status.${job.status}`) },
            { header: t('review.pending'), cell: (job) => formatNumber(job.pending) },
            { header: t('review.inReview'), cell: (job) => formatNumber(job.in_review) },
            { header: t('review.approved'), cell: (job) => formatNumber(job.approved) },
            { header: t('review.edited'), cell: (job) => formatNumber(job.edited) },
            { header: t('batches.created'), cell: (job) => formatDateTime(job.created_at) },
          ]}
        />
      )}
      <Pager {...pager(data?.total)} />
    </section>
  );
}
