import { useState } from 'react';
import { Link, useParams } from 'react-router';
import { formatDateTime, formatLanguage, formatNumber } from '../../../i18n/format';
import { useT } from '../../../i18n/i18n';
import { ApiErrorMessage } from '../../../ui/ApiErrorMessage';
import { ConfirmButton } from '../../../ui/ConfirmButton';
import { DataTable } from '../../../ui/DataTable';
import { PageHeader } from '../../../ui/PageHeader';
import { Pager } from '../../../ui/Pager';
import { useMode } from '../../mode/hooks/use-mode';
import { useCursorPages } from '../../../ui/use-page';
import { useAdvice } from '../hooks/use-advice';
import { memoryExportUrl, useMemoryActions, useMemoryEntries, type MemoryEntry } from '../hooks/use-memories';
import { describeOrigin } from '../utils/entry-origin';
import { adviceFor } from '../utils/memory-problems';
import { EntryEditDialog } from './EntryEditDialog';
import { MemoryImportForm } from './MemoryImportForm';

/** One memory: its import, its TMX, and its entries searched a page at a time, each editable and deletable. */
export function MemoryPage() {
  const t = useT();
  const { id = '' } = useParams();
  const mode = useMode();
  const [search, setSearch] = useState('');
  const { cursor, restart, pager } = useCursorPages();
  const { data, error, isPending } = useMemoryEntries(mode, id, search.trim(), cursor);
  const { removeEntry } = useMemoryActions(mode);
  const [editing, setEditing] = useState<MemoryEntry>();
  const [removed, setRemoved] = useState<MemoryEntry>();
  const advice = useAdvice(data?.limits);
  const memory = data?.memory;
  const limits = data?.limits;

  return (
    <>
      <PageHeader
        title={memory ? memory.name : t('memories.title')}
        intro={
          memory &&
          limits &&
          t('memories.about', {
            source: memory.source ? formatLanguage(memory.source) : t('memories.anySource'),
            count: formatNumber(memory.entry_count),
            max: formatNumber(limits.entries_per_memory),
            mode: t(`mode.${mode}`),
          })
        }
        actions={
          memory && (
            <a className="btn" href={memoryExportUrl(mode, memory.id)} download>
              {t('memories.export')}
            </a>
          )
        }
      />
      <p>
        <Link to="/memories">{t('memories.back')}</Link>
      </p>
      <ApiErrorMessage error={error ?? removeEntry.error} hint={advice(adviceFor(error ?? removeEntry.error))} />
      {memory?.default && <p className="alert alert-info">{t('memories.defaultNote')}</p>}
      {memory && limits && <MemoryImportForm key={memory.id} mode={mode} memory={memory} limits={limits} />}
      {memory && (
        <>
          <h2>{t('memories.entries')}</h2>
          <div className="field search">
            <label htmlFor="entry-search">{t('memories.search')}</label>
            <input
              id="entry-search"
              type="search"
              maxLength={200}
              value={search}
              onChange={(event) => {
                setSearch(event.target.value);
                restart();
              }}
            />
          </div>
          {removed && (
            <div className="alert alert-success" role="status">
              {t('memories.entryDeleted', { source: removed.source })}
            </div>
          )}
          {isPending && <p className="loading">{t('app.loading')}</p>}
          {data && data.entries.length === 0 ? (
            <p aria-live="polite">{t(search.trim() ? 'memories.noMatches' : 'memories.noEntries')}</p>
          ) : (
            data && (
              <DataTable
                label={t('memories.entries')}
                rows={data.entries}
                rowKey={(entry) => entry.id}
                columns={[
                  {
                    header: t('memories.entrySource'),
                    rowHeader: true,
                    className: 'memory-text',
                    cell: (entry) => <span lang={entry.source_lang}>{entry.source}</span>,
                  },
                  { header: t('memories.entryTarget'), className: 'memory-text', cell: (entry) => <span lang={entry.target_lang}>{entry.target}</span> },
                  { header: t('memories.languages'), cell: (entry) => `${entry.source_lang} \u2192 ${entry.target_lang}` },
                  {
                    header: t('memories.origin'),
                    cell: (entry) => (
                      <>
                        {describeOrigin(t, entry.origin, entry.provenance)}
                        <p className="hint">{t('memories.used', { count: formatNumber(entry.usage_count), date: formatDateTime(entry.updated_at) })}</p>
                      </>
                    ),
                  },
                  {
                    header: t('memories.actions'),
                    className: 'row-actions',
                    cell: (entry) => (
                      <>
                        <button type="button" className="btn" aria-label={t('memories.editOf', { source: entry.source })} onClick={() => setEditing(entry)}>
                          {t('memories.edit')}
                        </button>
                        <ConfirmButton
                          label={t('memories.entryDeleteOf', { source: entry.source })}
                          question={t('memories.entryDeleteConfirm', { source: entry.source, target: entry.target })}
                          confirmLabel={t('memories.delete')}
                          onConfirm={() => removeEntry.mutate({ id, entryId: entry.id }, { onSuccess: () => setRemoved(entry) })}
                        >
                          {t('memories.delete')}
                        </ConfirmButton>
                      </>
                    ),
                  },
                ]}
              />
            )
          )}
          <Pager {...pager(data?.next_cursor)} />
        </>
      )}
      {editing && memory && <EntryEditDialog mode={mode} memoryId={memory.id} entry={editing} maxLength={limits?.segment_length} onClose={() => setEditing(undefined)} />}
    </>
  );
}
