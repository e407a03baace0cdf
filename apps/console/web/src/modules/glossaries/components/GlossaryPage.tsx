import { useState } from 'react';
import { Link, useParams } from 'react-router';
import { formatNumber } from '../../../i18n/format';
import { useT } from '../../../i18n/i18n';
import { ApiErrorMessage } from '../../../ui/ApiErrorMessage';
import { CopyValue } from '../../../ui/CopyValue';
import { PageHeader } from '../../../ui/PageHeader';
import { DataTable } from '../../../ui/DataTable';
import { Pager } from '../../../ui/Pager';
import { useMode } from '../../mode/hooks/use-mode';
import { useOffsetPages } from '../../../ui/use-page';
import { glossaryCsvUrl, useGlossaryEntries, type GlossaryEntry } from '../hooks/use-glossaries';
import { EntryEditDialog } from './EntryEditDialog';

export function GlossaryPage() {
  const t = useT();
  const { id = '' } = useParams();
  const mode = useMode();
  const [search, setSearch] = useState('');
  const { range, restart, pager } = useOffsetPages();
  const [editing, setEditing] = useState<GlossaryEntry>();
  const { data, error, isPending } = useGlossaryEntries(mode, id, search.trim(), range);
  const glossary = data?.glossary;

  return (
    <>
      <PageHeader
        title={glossary ? glossary.name : t('glossaries.title')}
        intro={glossary && `${glossary.source} → ${glossary.targets.join(', ')} · ${t('mode.label')}: ${t(`mode.${mode}`)}`}
        actions={
          glossary && (
            <a className="btn" href={glossaryCsvUrl(mode, glossary.id)} download>
              {t('glossaries.download')}
            </a>
          )
        }
      />
      <p>
        <Link to="/glossaries">{t('glossaries.back')}</Link>
      </p>
      {glossary && (
        <div className="field">
          <span className="label">{t('glossaries.id')}</span>
          <CopyValue value={glossary.id} what={t('glossaries.idOf', { name: glossary.name })} />
          <p className="hint">{t('glossaries.idHint')}</p>
        </div>
      )}
      <ApiErrorMessage error={error} />
      <div className="field search">
        <label htmlFor="entry-search">{t('glossaries.search')}</label>
        <input
          id="entry-search"
          type="search"
          maxLength={200}
          value={search}
          onChange={(e) => {
            setSearch(e.target.value);
            restart();
          }}
        />
      </div>
      {isPending && <p className="loading">{t('app.loading')}</p>}
      {data && (
        <>
          <p aria-live="polite">{t('glossaries.matches', { count: formatNumber(data.total) })}</p>
          {data.entries.length === 0 ? (
            <p>{t('glossaries.noEntries')}</p>
          ) : (
            <DataTable
              label={t('glossaries.entries')}
              rows={data.entries}
              rowKey={(entry) => String(entry.index)}
              columns={[
                { header: t('glossaries.term'), rowHeader: true, cell: (entry) => entry.term },
                {
                  header: t('glossaries.translations'),
                  cell: (entry) => (
                    <dl className="facts">
                      {Object.entries(entry.translations).map(([language, text]) => (
                        <div key={language} className="fact">
                          <dt>{language}</dt>
                          <dd>{text}</dd>
                        </div>
                      ))}
                    </dl>
                  ),
                },
                {
                  header: t('glossaries.actions'),
                  cell: (entry) => (
                    <button type="button" className="btn" aria-label={t('glossaries.editOf', { term: entry.term })} onClick={() => setEditing(entry)}>
                      {t('glossaries.edit')}
                    </button>
                  ),
                },
              ]}
            />
          )}
          <Pager {...pager(data.total)} />
        </>
      )}
      {editing && glossary && <EntryEditDialog mode={mode} glossaryId={glossary.id} entry={editing} targets={glossary.targets} onClose={() => setEditing(undefined)} />}
    </>
  );
}
