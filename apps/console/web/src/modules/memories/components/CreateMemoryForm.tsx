import { useState, type FormEvent } from 'react';
import { formatNumber } from '../../../i18n/format';
import { useT } from '../../../i18n/i18n';
import { ApiErrorMessage } from '../../../ui/ApiErrorMessage';
import { Field } from '../../../ui/Field';
import type { Mode } from '../../mode/hooks/use-mode';
import { useMemoryActions, type Language } from '../hooks/use-memories';
import { createProblem } from '../utils/memory-problems';

const LANGUAGE_CODE = /^[a-z]{2}$/;

interface CreateMemoryFormProps {
  mode: Mode;
  /** The mode holds as many memories as it may. */
  full: boolean;
  max: number;
}

/** A name and, optionally, the one source language of the memory's entries; the API's refusals beside the field they are about. */
export function CreateMemoryForm({ mode, full, max }: CreateMemoryFormProps) {
  const t = useT();
  const { create } = useMemoryActions(mode);
  const [name, setName] = useState('');
  const [source, setSource] = useState('');
  const [checked, setChecked] = useState<{ name?: string; source?: string }>({});
  const refused = createProblem(create.error);

  const submit = (event: FormEvent) => {
    event.preventDefault();
    const code = source.trim().toLowerCase();
    const problems = {
      name: name.trim() === '' ? t('memories.nameMissing') : undefined,
      source: code !== '' && !LANGUAGE_CODE.test(code) ? t('memories.sourceMalformed') : undefined,
    };
    setChecked(problems);
    if (problems.name || problems.source) return;
    // The API checks the code against the 24 official EU languages and names them when it is not one.
    create.mutate({ name: name.trim(), ...(code && { source: code as Language }) }, { onSuccess: () => setName('') });
  };

  return (
    <section className="card" aria-labelledby="memory-create">
      <h2 id="memory-create">{t('memories.create')}</h2>
      {full && <p className="alert alert-info">{t('memories.full', { max: formatNumber(max) })}</p>}
      <form className="form" onSubmit={submit} noValidate>
        <Field
          label={t('memories.name')}
          hint={t('memories.nameHint')}
          maxLength={100}
          value={name}
          onChange={(event) => setName(event.target.value)}
          error={checked.name ?? (refused?.field === 'name' ? refused.message : undefined)}
        />
        <Field
          label={t('memories.source')}
          hint={t('memories.sourceHint')}
          maxLength={2}
          value={source}
          onChange={(event) => setSource(event.target.value)}
          error={checked.source ?? (refused?.field === 'source' ? refused.message : undefined)}
        />
        {refused?.field === 'form' && <ApiErrorMessage error={create.error} />}
        {create.data && !create.isPending && (
          <div className="alert alert-success" role="status">
            {t('memories.created', { name: create.data.memory.name })}
          </div>
        )}
        <button type="submit" className="btn btn-primary" disabled={full || create.isPending}>
          {t('memories.createSubmit')}
        </button>
      </form>
    </section>
  );
}
