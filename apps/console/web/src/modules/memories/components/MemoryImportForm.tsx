import { useState, type FormEvent } from 'react';
import { formatBytes } from '../../../i18n/format';
import { useT } from '../../../i18n/i18n';
import { ApiErrorMessage } from '../../../ui/ApiErrorMessage';
import { Field, SelectField } from '../../../ui/Field';
import type { Mode } from '../../mode/hooks/use-mode';
import { useAdvice } from '../hooks/use-advice';
import { useMemoryActions, type Language, type Memory, type MemoryLimits } from '../hooks/use-memories';
import { fileProblem, formatOfName, MEMORY_FILE_FORMATS, type MemoryFileFormat } from '../utils/memory-file';
import { adviceFor, importProblem } from '../utils/memory-problems';
import { ImportSummary } from './ImportSummary';

interface MemoryImportFormProps {
  mode: Mode;
  memory: Memory;
  limits: MemoryLimits;
}

const optionalCode = (value: string) => (value.trim() === '' ? undefined : (value.trim().toLowerCase() as Language));

/**
 * A TMX, XLIFF or PO file sent as it is. What the page can tell before sending (no file, too
 * large, no format) and what the API refuses appear beside the field they are about.
 */
export function MemoryImportForm({ mode, memory, limits }: MemoryImportFormProps) {
  const t = useT();
  const advice = useAdvice(limits);
  const { importFile } = useMemoryActions(mode);
  const [file, setFile] = useState<File>();
  const [format, setFormat] = useState<MemoryFileFormat | ''>('');
  const [source, setSource] = useState(memory.source ?? '');
  const [target, setTarget] = useState('');
  const [checked, setChecked] = useState<ReturnType<typeof fileProblem>>();
  const refused = importProblem(importFile.error);
  const refusal = (field: 'file' | 'format' | 'source' | 'target') => (refused?.field === field ? refused.message : undefined);
  const fileError =
    checked === 'missing' ? t('memories.file.missing') : checked === 'too-large' ? t('memories.file.tooLarge', { size: formatBytes(file!.size), max: formatBytes(limits.import_bytes) }) : refusal('file');

  const submit = (event: FormEvent) => {
    event.preventDefault();
    const problem = fileProblem(file, format || undefined, limits.import_bytes);
    setChecked(problem);
    importFile.reset();
    if (problem) return;
    importFile.mutate({ id: memory.id, file: file!, format: format || formatOfName(file!.name)!, source: optionalCode(source), target: optionalCode(target) });
  };

  return (
    <section className="card" aria-labelledby="memory-import">
      <h2 id="memory-import">{t('memories.import')}</h2>
      <form className="form" onSubmit={submit} noValidate>
        <div className="field">
          <label htmlFor="memory-file">{t('memories.file')}</label>
          <input
            id="memory-file"
            type="file"
            accept=".tmx,.xlf,.xliff,.po,.pot"
            aria-describedby={fileError ? 'memory-file-hint memory-file-error' : 'memory-file-hint'}
            aria-invalid={fileError ? true : undefined}
            onChange={(event) => {
              setFile(event.target.files?.[0]);
              setChecked(undefined);
              importFile.reset();
            }}
          />
          <p className="hint" id="memory-file-hint">
            {t('memories.fileHint', { size: formatBytes(limits.import_bytes) })}
          </p>
          {fileError && (
            <div className="field-error" id="memory-file-error" role="alert">
              <p>{fileError}</p>
              {refused?.field === 'file' && <p>{advice(adviceFor(importFile.error))}</p>}
            </div>
          )}
        </div>
        <SelectField
          label={t('memories.format')}
          value={format}
          onChange={(event) => setFormat(event.target.value as MemoryFileFormat | '')}
          error={checked === 'format-unknown' ? t('memories.file.formatUnknown') : refusal('format')}
        >
          <option value="">{t('memories.formatByName')}</option>
          {MEMORY_FILE_FORMATS.map((each) => (
            <option key={each} value={each}>
              {t(`memories.formatName.${each}`)}
            </option>
          ))}
        </SelectField>
        <Field label={t('memories.importSource')} hint={t('memories.importSourceHint')} maxLength={2} value={source} onChange={(event) => setSource(event.target.value)} error={refusal('source')} />
        <Field label={t('memories.importTarget')} hint={t('memories.importTargetHint')} maxLength={2} value={target} onChange={(event) => setTarget(event.target.value)} error={refusal('target')} />
        {refused?.field === 'form' && <ApiErrorMessage error={importFile.error} hint={advice(adviceFor(importFile.error))} />}
        {importFile.data && file && <ImportSummary file={file.name} summary={importFile.data} />}
        <button type="submit" className="btn btn-primary" disabled={importFile.isPending}>
          {importFile.isPending ? t('memories.importing') : t('memories.importSubmit')}
        </button>
      </form>
    </section>
  );
}
