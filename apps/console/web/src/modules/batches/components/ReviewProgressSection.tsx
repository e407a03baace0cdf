import { useState } from 'react';
import { Link } from 'react-router';
import { formatDateTime, formatNumber } from '../../../i18n/format';
import { useT } from '../../../i18n/i18n';
import { ApiErrorMessage } from '../../../ui/ApiErrorMessage';
import { Pager } from '../../../ui/Pager';
import { TableRegion } from '../../../ui/TableRegion';
import type { Mode } from '../../../ui/use-mode';
import { PAGE_SIZE, useReviewProgress } from '../hooks/use-batches';

/** Owners follow how far reviewers have come with each review-tier job. */
export function ReviewProgressSection({ mode }: { mode: Mode }) {
  const t = useT();
  const [page, setPage] = useState(1);
  const { data, error } = useReviewProgress(mode, page);
  const pages = Math.max(1, Math.ceil((data?.total ?? 0) / PAGE_SIZE));
  return (
    <section aria-labelledby="review-progress">
      <h2 id="review-progress">{t('review.title')}</h2>
      <p className="intro">{t('review.intro')}</p>
      <ApiErrorMessage error={error} />
      {data && data.jobs.length === 0 && <p>{t('review.none')}</p>}
      {data && data.jobs.length > 0 && (
        <TableRegion label={t('review.title')}>
          <table>
            <thead>
              <tr>
                <th scope="col">{t('batches.job')}</th>
                <th scope="col">{t('batches.status')}</th>
                <th scope="col">{t('review.pending')}</th>
                <th scope="col">{t('review.inReview')}</th>
                <th scope="col">{t('review.approved')}</th>
                <th scope="col">{t('review.edited')}</th>
                <th scope="col">{t('batches.created')}</th>
              </tr>
            </thead>
            <tbody>
              {data.jobs.map((job) => (
                <tr key={job.job}>
                  <th scope="row">
                    <Link to={`/batches/${job.job}?mode=${mode}`}>
                      <code>{job.job}</code>
                    </Link>
                  </th>
                  <td>{t(`batches.status.${job.status}`)}</td>
                  <td>{formatNumber(job.pending)}</td>
                  <td>{formatNumber(job.in_review)}</td>
                  <td>{formatNumber(job.approved)}</td>
                  <td>{formatNumber(job.edited)}</td>
                  <td>{formatDateTime(job.created_at)}</td>
                </tr>
              ))}
            </tbody>
          </table>
        </TableRegion>
      )}
      <Pager page={page} pages={pages} hasNext={page < pages} onPage={setPage} />
    </section>
  );
}
