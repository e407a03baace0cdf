import { Link } from 'react-router';
import { formatDateTime, formatMoney, formatNumber } from '../../../i18n/format';
import { useT } from '../../../i18n/i18n';
import { ApiErrorMessage } from '../../../ui/ApiErrorMessage';
import { PageHeader } from '../../../ui/PageHeader';
import { DataTable } from '../../../ui/DataTable';
import { Pager } from '../../../ui/Pager';
import { useCursorPages } from '../../../ui/use-page';
import { useMode, type Mode } from '../../mode/hooks/use-mode';
import type { Session } from '../../session/hooks/use-session';
import { useBatches } from '../hooks/use-batches';
import { BatchStatus } from './BatchStatus';
import { ReviewProgressSection } from './ReviewProgressSection';

export function BatchesPage({ session }: { session: Session }) {
  const t = useT();
  const mode = useMode();
  return (
    <>
      <PageHeader title={t('batches.title')} intro={t('batches.intro')} />
      <BatchList mode={mode} />
      {session.user.role === 'owner' && <ReviewProgressSection mode={mode} />}
    </>
  );
}

function BatchList({ mode }: { mode: Mode }) {
  const t = useT();
  const { cursor, pager } = useCursorPages();
  const { data, error, isPending } = useBatches(mode, cursor);
  const batches = data?.batches ?? [];
  if (isPending) return <p className="loading">{t('app.loading')}</p>;
  return (
    <>
      <ApiErrorMessage error={error} />
      {batches.length === 0 ? (
        <p>{t('batches.none')}</p>
      ) : (
        <DataTable
          label={t('batches.title')}
          rows={batches}
          rowKey={(job) => job.id}
          columns={[
            {
              header: t('batches.job'),
              rowHeader: true,
              cell: (job) => (
                <Link to={`/batches/${job.id}`}>
                  <code>{job.id}</code>
                </Link>
              ),
            },
            { header: t('batches.status'), cell: (job) => <BatchStatus job={job} /> },
            { header: t('batches.target'), cell: (job) => job.target },
            { header: t('batches.tier'), cell: (job) => job.tier },
            { header: t('batches.words'), cell: (job) => formatNumber(job.words) },
            { header: t('batches.cost'), cell: (job) => formatMoney(job.cost_cents / 100) },
            { header: t('batches.created'), cell: (job) => formatDateTime(job.created_at) },
          ]}
        />
      )}
      <Pager {...pager(data?.next_cursor)} />
    </>
  );
}
