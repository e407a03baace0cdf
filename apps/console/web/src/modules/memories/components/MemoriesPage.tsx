import { useState } from 'react';
import { Link } from 'react-router';
import { formatBytes, formatDateTime, formatLanguage, formatNumber } from '../../../i18n/format';
import { useT } from '../../../i18n/i18n';
import { ApiErrorMessage } from '../../../ui/ApiErrorMessage';
import { ConfirmButton } from '../../../ui/ConfirmButton';
import { DataTable } from '../../../ui/DataTable';
import { PageHeader } from '../../../ui/PageHeader';
import { useMode } from '../../mode/hooks/use-mode';
import { useAdvice } from '../hooks/use-advice';
import { memoryExportUrl, useMemories, useMemoryActions, type Memory } from '../hooks/use-memories';
import { adviceFor } from '../utils/memory-problems';
import { CreateMemoryForm } from './CreateMemoryForm';

/** The mode's memories with their counts against the limits, creation, TMX download and deletion. */
export function MemoriesPage() {
  const t = useT();
  const mode = useMode();
  const { data, error, isPending } = useMemories(mode);
  const advice = useAdvice(data?.limits);
  const { remove } = useMemoryActions(mode);
  const [deleted, setDeleted] = useState<Memory>();
  const memories = data?.memories ?? [];
  const limits = data?.limits;

  return (
    <>
      <PageHeader title={t('memories.title')} intro={t('memories.intro')} />
      <ApiErrorMessage error={error ?? remove.error} hint={advice(adviceFor(error ?? remove.error))} />
      {deleted && (
        <div className="alert alert-success" role="status">
          {t(deleted.default ? 'memories.emptied' : 'memories.deleted', { name: deleted.name })}
        </div>
      )}
      {limits && (
        <p data-testid="memory-limits">
          {t('memories.limits', {
            count: formatNumber(memories.length),
            max: formatNumber(limits.memories_per_mode),
            entries: formatNumber(limits.entries_per_memory),
            size: formatBytes(limits.import_bytes),
          })}
        </p>
      )}
      {isPending ? (
        <p className="loading">{t('app.loading')}</p>
      ) : (
        <DataTable
          label={t('memories.title')}
          rows={memories}
          rowKey={(memory) => memory.id}
          columns={[
            {
              header: t('memories.name'),
              rowHeader: true,
              cell: (memory) => (
                <>
                  <Link to={`/memories/${memory.id}`}>{memory.name}</Link>
                  {memory.default && <p className="hint">{t('memories.defaultNote')}</p>}
                </>
              ),
            },
            { header: t('memories.source'), cell: (memory) => (memory.source ? formatLanguage(memory.source) : t('memories.anySource')) },
            {
              header: t('memories.entries'),
              cell: (memory) => t('memories.entriesOf', { count: formatNumber(memory.entry_count), max: formatNumber(limits?.entries_per_memory ?? 0) }),
            },
            { header: t('memories.updated'), cell: (memory) => formatDateTime(memory.updated_at) },
            {
              header: t('memories.actions'),
              className: 'row-actions',
              cell: (memory) => (
                <>
                  <a className="btn" href={memoryExportUrl(mode, memory.id)} download aria-label={t('memories.exportOf', { name: memory.name })}>
                    {t('memories.export')}
                  </a>
                  <ConfirmButton
                    label={t(memory.default ? 'memories.emptyOf' : 'memories.deleteOf', { name: memory.name })}
                    question={t(memory.default ? 'memories.emptyConfirm' : 'memories.deleteConfirm', { name: memory.name, count: formatNumber(memory.entry_count) })}
                    confirmLabel={t(memory.default ? 'memories.empty' : 'memories.delete')}
                    onConfirm={() => remove.mutate(memory.id, { onSuccess: () => setDeleted(memory) })}
                  >
                    {t(memory.default ? 'memories.empty' : 'memories.delete')}
                  </ConfirmButton>
                </>
              ),
            },
          ]}
        />
      )}
      {limits && <CreateMemoryForm mode={mode} full={memories.length >= limits.memories_per_mode} max={limits.memories_per_mode} />}
    </>
  );
}
