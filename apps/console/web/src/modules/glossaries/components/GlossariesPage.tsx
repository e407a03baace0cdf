import { useState } from 'react';
import { Link } from 'react-router';
import { formatDateTime, formatNumber } from '../../../i18n/format';
import { useT } from '../../../i18n/i18n';
import { ApiErrorMessage } from '../../../ui/ApiErrorMessage';
import { ConfirmButton } from '../../../ui/ConfirmButton';
import { ModeSwitch } from '../../../ui/ModeSwitch';
import { PageHeader } from '../../../ui/PageHeader';
import { TableRegion } from '../../../ui/TableRegion';
import { Pager } from '../../../ui/Pager';
import { useMode } from '../../../ui/use-mode';
import type { Session } from '../../session/hooks/use-session';
import { glossaryCsvUrl, PAGE_SIZE, useGlossaries, useGlossaryActions } from '../hooks/use-glossaries';
import { GlossaryUploadForm } from './GlossaryUploadForm';

export function GlossariesPage({ session }: { session: Session }) {
  const t = useT();
  const [mode, setMode] = useMode(session);
  const [page, setPage] = useState(1);
  const { data, error, isPending } = useGlossaries(mode, page);
  const { remove } = useGlossaryActions(mode);
  const [deleted, setDeleted] = useState<string>();
  const glossaries = data?.glossaries ?? [];
  const pages = Math.max(1, Math.ceil((data?.total ?? 0) / PAGE_SIZE));

  return (
    <>
      <PageHeader
        title={t('glossaries.title')}
        intro={t('glossaries.intro')}
        actions={
          <ModeSwitch
            mode={mode}
            onChange={(next) => {
              setPage(1);
              setMode(next);
            }}
          />
        }
      />
      <ApiErrorMessage error={error ?? remove.error} />
      {deleted && (
        <div className="alert alert-success" role="status">
          {t('glossaries.deleted', { name: deleted })}
        </div>
      )}
      {isPending ? (
        <p className="loading">{t('app.loading')}</p>
      ) : glossaries.length === 0 ? (
        <p>{t('glossaries.none')}</p>
      ) : (
        <TableRegion label={t('glossaries.title')}>
          <table>
            <thead>
              <tr>
                <th scope="col">{t('glossaries.name')}</th>
                <th scope="col">{t('glossaries.source')}</th>
                <th scope="col">{t('glossaries.targets')}</th>
                <th scope="col">{t('glossaries.entries')}</th>
                <th scope="col">{t('glossaries.updated')}</th>
                <th scope="col">{t('glossaries.actions')}</th>
              </tr>
            </thead>
            <tbody>
              {glossaries.map((glossary) => (
                <tr key={glossary.id}>
                  <th scope="row">
                    <Link to={`/glossaries/${glossary.id}?mode=${mode}`}>{glossary.name}</Link>
                  </th>
                  <td>{glossary.source}</td>
                  <td>{glossary.targets.join(', ')}</td>
                  <td>{formatNumber(glossary.entry_count)}</td>
                  <td>{formatDateTime(glossary.updated_at)}</td>
                  <td className="row-actions">
                    <a className="btn" href={glossaryCsvUrl(mode, glossary.id)} download aria-label={t('glossaries.downloadOf', { name: glossary.name })}>
                      {t('glossaries.download')}
                    </a>
                    <ConfirmButton
                      question={t('glossaries.deleteConfirm', { name: glossary.name })}
                      confirmLabel={t('glossaries.delete')}
                      onConfirm={() => remove.mutate(glossary.id, { onSuccess: () => setDeleted(glossary.name) })}
                    >
                      {t('glossaries.delete')}
                    </ConfirmButton>
                  </td>
                </tr>
              ))}
            </tbody>
          </table>
        </TableRegion>
      )}
      <Pager page={page} pages={pages} hasNext={page < pages} onPage={setPage} />
      <GlossaryUploadForm mode={mode} />
    </>
  );
}
