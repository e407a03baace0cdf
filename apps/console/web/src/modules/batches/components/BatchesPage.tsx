import { Link } from 'react-router';
import { formatDateTime, formatMoney, formatNumber } from '../../../i18n/format';
import { useT } from '../../../i18n/i18n';
import { ApiErrorMessage } from '../../../ui/ApiErrorMessage';
import { ModeSwitch } from '../../../ui/ModeSwitch';
import { PageHeader } from '../../../ui/PageHeader';
import { TableRegion } from '../../../ui/TableRegion';
import { Pager } from '../../../ui/Pager';
import { useCursorPages } from '../../../ui/use-page';
import { useMode, type Mode } from '../../../ui/use-mode';
import type { Session } from '../../session/hooks/use-session';
import { useBatches } from '../hooks/use-batches';
import { BatchStatus } from './BatchStatus';
import { ReviewProgressSection } from './ReviewProgressSection';

export function BatchesPage({ session }: { session: Session }) {
  const t = useT();
  const [mode, setMode] = useMode(session);
  return (
    <>
      <PageHeader title={t('batches.title')} intro={t('batches.intro')} actions={<ModeSwitch mode={mode} onChange={setMode} />} />
      {/* Keyed by mode: the other world's cursors mean nothing. */}
      <BatchList key={mode} mode={mode} />
      {session.user.role === 'owner' && <ReviewProgressSection key={`review-${mode}`} mode={mode} />}
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
        <TableRegion label={t('batches.title')}>
          <table>
            <thead>
              <tr>
                <th scope="col">{t('batches.job')}</th>
                <th scope="col">{t('batches.status')}</th>
                <th scope="col">{t('batches.target')}</th>
                <th scope="col">{t('batches.tier')}</th>
                <th scope="col">{t('batches.words')}</th>
                <th scope="col">{t('batches.cost')}</th>
                <th scope="col">{t('batches.created')}</th>
              </tr>
            </thead>
            <tbody>
              {batches.map((job) => (
                <tr key={job.id}>
                  <th scope="row">
                    <Link to={`/batches/${job.id}?mode=${mode}`}>
                      <code>{job.id}</code>
                    </Link>
                  </th>
                  <td>
                    <BatchStatus job={job} />
                  </td>
                  <td>{job.target}</td>
                  <td>{job.tier}</td>
                  <td>{formatNumber(job.words)}</td>
                  <td>{formatMoney(job.cost_cents / 100)}</td>
                  <td>{formatDateTime(job.created_at)}</td>
                </tr>
              ))}
            </tbody>
          </table>
        </TableRegion>
      )}
      <Pager {...pager(data?.next_cursor)} />
    </>
  );
}
