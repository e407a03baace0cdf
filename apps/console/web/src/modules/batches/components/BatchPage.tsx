import { Link, useParams } from 'react-router';
import { formatDateTime, formatMoney, formatNumber } from '../../../i18n/format';
import { useT } from '../../../i18n/i18n';
import { ApiErrorMessage } from '../../../ui/ApiErrorMessage';
import { PageHeader } from '../../../ui/PageHeader';
import { DataTable } from '../../../ui/DataTable';
import { Pager } from '../../../ui/Pager';
import { useMode } from '../../mode/hooks/use-mode';
import { useOffsetPages } from '../../../ui/use-page';
import { resultsUrl, useBatch } from '../hooks/use-batches';
import { BatchStatus } from './BatchStatus';

/** A job's facts, its downloads and its texts, each source beside its translation. */
export function BatchPage() {
  const t = useT();
  const { job: jobId = '' } = useParams();
  const mode = useMode();
  const { range, pager } = useOffsetPages();
  const { data, error, isPending } = useBatch(mode, jobId, range);
  const job = data?.job;

  return (
    <>
      <PageHeader title={t('batches.jobTitle')} />
      <p>
        <Link to="/batches">{t('batches.back')}</Link>
      </p>
      <ApiErrorMessage error={error} />
      {isPending && <p className="loading">{t('app.loading')}</p>}
      {job && data && (
        <>
          <dl className="facts">
            <dt>{t('batches.job')}</dt>
            <dd>
              <code className="break-anywhere">{job.id}</code>
            </dd>
            <dt>{t('batches.status')}</dt>
            <dd>
              <BatchStatus job={job} />
            </dd>
            <dt>{t('batches.target')}</dt>
            <dd>{job.target}</dd>
            <dt>{t('batches.tier')}</dt>
            <dd>{job.tier}</dd>
            {job.reviewed_by && (
              <>
                <dt>{t('batches.reviewedBy')}</dt>
                <dd>{t(`batches.reviewedBy.${job.reviewed_by}`)}</dd>
              </>
            )}
            <dt>{t('batches.words')}</dt>
            <dd>{formatNumber(job.words)}</dd>
            <dt>{t('batches.cost')}</dt>
            <dd>{formatMoney(job.cost_cents / 100)}</dd>
            <dt>{t('batches.created')}</dt>
            <dd>{formatDateTime(job.created_at)}</dd>
            {job.completed_at && (
              <>
                <dt>{t('batches.completed')}</dt>
                <dd>{formatDateTime(job.completed_at)}</dd>
              </>
            )}
            {data.error && (
              <>
                <dt>{t('batches.error')}</dt>
                <dd>{data.error}</dd>
              </>
            )}
          </dl>
          {job.status === 'done' ? (
            <p className="actions">
              <a className="btn" href={resultsUrl(mode, job.id, 'json')} download>
                {t('batches.downloadJson')}
              </a>
              <a className="btn" href={resultsUrl(mode, job.id, 'csv')} download>
                {t('batches.downloadCsv')}
              </a>
            </p>
          ) : (
            <p className="hint">{t('batches.downloadLater')}</p>
          )}
          <section aria-labelledby="batch-texts">
            <h2 id="batch-texts">{t('batches.texts')}</h2>
            <DataTable
              label={t('batches.texts')}
              rows={data.texts}
              rowKey={(text) => String(text.index)}
              columns={[
                { header: t('batches.index'), rowHeader: true, cell: (text) => text.index + 1 },
                { header: t('batches.source'), className: 'text-cell', cell: (text) => <span lang={text.detected_source ?? undefined}>{text.source_text}</span> },
                {
                  header: t('batches.translation'),
                  className: 'text-cell',
                  cell: (text) => (text.translation === null ? <span className="hint">{t('batches.pending')}</span> : <span lang={job.target}>{text.translation}</span>),
                },
              ]}
            />
            <Pager {...pager(data.total)} />
          </section>
        </>
      )}
    </>
  );
}
