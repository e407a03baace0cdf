import { useState, type DragEvent, type FormEvent } from 'react';
import { useT } from '../../../i18n/i18n';
import { ApiErrorMessage } from '../../../ui/ApiErrorMessage';
import { Field } from '../../../ui/Field';
import { placeProblem } from '../../../ui/field-problem';
import type { Mode } from '../../mode/hooks/use-mode';
import { useGlossaryActions, type GlossaryUpload } from '../hooks/use-glossaries';

/**
 * A CSV file dropped on the zone or chosen with the file input (the keyboard's way, and the
 * fallback where dragging is not possible), sent as text; the API's message names the line of
 * the file it refuses.
 */
export function GlossaryUploadForm({ mode }: { mode: Mode }) {
  const t = useT();
  const { upload } = useGlossaryActions(mode);
  const [name, setName] = useState('');
  const [source, setSource] = useState('en');
  const [file, setFile] = useState<File>();
  const [dragging, setDragging] = useState(false);
  const [missing, setMissing] = useState(false);
  // The API names the field it refuses, or the line of the file (`line 3: ...`) or the file as a whole.
  const refused = placeProblem<'name' | 'source' | 'csv'>(upload.error, [
    ['name', /^name\b/i],
    ['source', /^source\b/i],
    ['csv', /^(line \d+|the csv|csv)\b/i],
  ]);
  const fileError = missing ? t('glossaries.noFile') : refused?.field === 'csv' ? refused.message : undefined;

  const choose = (chosen: File | undefined) => {
    setFile(chosen);
    setMissing(false);
    upload.reset();
    if (chosen && !name) setName(chosen.name.replace(/\.csv$/i, ''));
  };
  const drop = (event: DragEvent) => {
    event.preventDefault();
    setDragging(false);
    choose(event.dataTransfer.files[0]);
  };
  const submit = async (event: FormEvent) => {
    event.preventDefault();
    if (!file) return setMissing(true);
    // The API checks the code against the 24 official EU languages and names them when it is not one.
    upload.mutate({ name, source: source.trim().toLowerCase() as GlossaryUpload['source'], csv: await file.text() });
  };

  return (
    <section className="card" aria-labelledby="glossary-upload">
      <h2 id="glossary-upload">{t('glossaries.upload')}</h2>
      <form className="form" onSubmit={submit}>
        <Field label={t('glossaries.name')} required maxLength={100} value={name} onChange={(e) => setName(e.target.value)} error={refused?.field === 'name' ? refused.message : undefined} />
        <Field
          label={t('glossaries.source')}
          hint={t('glossaries.sourceHint')}
          required
          maxLength={2}
          value={source}
          onChange={(e) => setSource(e.target.value)}
          error={refused?.field === 'source' ? refused.message : undefined}
        />
        <div
          className={dragging ? 'dropzone dragging' : 'dropzone'}
          data-testid="glossary-dropzone"
          onDragOver={(event) => {
            event.preventDefault();
            setDragging(true);
          }}
          onDragLeave={() => setDragging(false)}
          onDrop={drop}
        >
          <p>{t('glossaries.drop')}</p>
          <div className="field">
            <label htmlFor="glossary-file">{t('glossaries.file')}</label>
            <input
              id="glossary-file"
              type="file"
              accept=".csv,text/csv"
              aria-describedby={fileError ? 'glossary-file-hint glossary-file-error' : 'glossary-file-hint'}
              aria-invalid={fileError ? true : undefined}
              onChange={(e) => choose(e.target.files?.[0])}
            />
          </div>
          <p className="hint" id="glossary-file-hint">
            {t('glossaries.uploadHint')}
          </p>
          {file && <p>{t('glossaries.chosen', { file: file.name })}</p>}
          {fileError && (
            <div className="field-error" id="glossary-file-error" role="alert">
              <p>{fileError}</p>
              {!missing && <p>{t('glossaries.fileFix')}</p>}
            </div>
          )}
        </div>
        {refused?.field === 'form' && <ApiErrorMessage error={upload.error} />}
        {upload.data && (
          <div className="alert alert-success" role="status">
            {t('glossaries.uploaded', { name: upload.data.glossary.name, count: upload.data.glossary.entry_count })}
          </div>
        )}
        <button type="submit" className="btn btn-primary" disabled={upload.isPending}>
          {t('glossaries.send')}
        </button>
      </form>
    </section>
  );
}
