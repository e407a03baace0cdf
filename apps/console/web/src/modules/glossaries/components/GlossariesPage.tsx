import { useState } from 'react';
import { Link } from 'react-router';
import { formatDateTime, formatNumber } from '../../../i18n/format';
import { useT } from '../../../i18n/i18n';
import { ApiErrorMessage } from '../../../ui/ApiErrorMessage';
import { ConfirmButton } from '../../../ui/ConfirmButton';
import { CopyValue } from '../../../ui/CopyValue';
import { PageHeader } from '../../../ui/PageHeader';
import { DataTable } from '../../../ui/DataTable';
import { Pager } from '../../../ui/Pager';
import { useMode } from '../../mode/hooks/use-mode';
import { useOffsetPages } from '../../../ui/use-page';
import { glossaryCsvUrl, useGlossaries, useGlossaryActions } from '../hooks/use-glossaries';
import { GlossaryUploadForm } from './GlossaryUploadForm';

export function GlossariesPage() {
  const t = useT();
  const mode = useMode();
  const { range, pager } = useOffsetPages();
  const { data, error, isPending } = useGlossaries(mode, range);
  const { remove } = useGlossaryActions(mode);
  const [deleted, setDeleted] = useState<string>();
  const glossaries = data?.glossaries ?? [];

  return (
    <>
      <PageHeader title={t('glossaries.title')} intro={t('glossaries.intro')} />
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
        <DataTable
          label={t('glossaries.title')}
          rows={glossaries}
          rowKey={(glossary) => glossary.id}
          columns={[
            { header: t('glossaries.name'), rowHeader: true, cell: (glossary) => <Link to={`/glossaries/${glossary.id}`}>{glossary.name}</Link> },
            { header: t('glossaries.id'), cell: (glossary) => <CopyValue value={glossary.id} what={t('glossaries.idOf', { name: glossary.name })} /> },
            { header: t('glossaries.source'), cell: (glossary) => glossary.source },
            { header: t('glossaries.targets'), cell: (glossary) => glossary.targets.join(', ') },
            { header: t('glossaries.entries'), cell: (glossary) => formatNumber(glossary.entry_count) },
            { header: t('glossaries.updated'), cell: (glossary) => formatDateTime(glossary.updated_at) },
            {
              header: t('glossaries.actions'),
              className: 'row-actions',
              cell: (glossary) => (
                <>
                  <a className="btn" href={glossaryCsvUrl(mode, glossary.id)} download aria-label={t('glossaries.downloadOf', { name: glossary.name })}>
                    {t('glossaries.download')}
                  </a>
                  <ConfirmButton
                    label={t('glossaries.deleteOf', { name: glossary.name })}
                    question={t('glossaries.deleteConfirm', { name: glossary.name })}
                    confirmLabel={t('glossaries.delete')}
                    onConfirm={() => remove.mutate(glossary.id, { onSuccess: () => setDeleted(glossary.name) })}
                  >
                    {t('glossaries.delete')}
                  </ConfirmButton>
                </>
              ),
            },
          ]}
        />
      )}
      {glossaries.length > 0 && <p className="hint">{t('glossaries.idHint')}</p>}
      <Pager {...pager(data?.total)} />
      <GlossaryUploadForm mode={mode} />
    </>
  );
}
