import { useState, type FormEvent } from 'react';
import { useT } from '../../../i18n/i18n';
import { ApiErrorMessage } from '../../../ui/ApiErrorMessage';
import { Field } from '../../../ui/Field';
import { SecretOnce } from '../../../ui/SecretOnce';
import { useKeyActions } from '../hooks/use-keys';
import { parseLimit } from '../utils/limit-input';
import { KeyLimitsFields, type LimitsDraft } from './KeyLimitsFields';

export function CreateKeyForm({ canCreateLive }: { canCreateLive: boolean }) {
  const t = useT();
  const { create } = useKeyActions();
  const [name, setName] = useState('');
  const [sandbox, setSandbox] = useState(!canCreateLive);
  const [limits, setLimits] = useState<LimitsDraft>({ monthly: '', rate: '' });

  const submit = (event: FormEvent) => {
    event.preventDefault();
    create.mutate({ name: name || undefined, sandbox, monthly_word_limit: parseLimit(limits.monthly), rate_limit_per_minute: parseLimit(limits.rate) });
  };
  return (
    <section className="card" aria-labelledby="create-key">
      <h2 id="create-key">{t('keys.createTitle')}</h2>
      <form onSubmit={submit} className="form">
        <Field label={t('keys.name')} maxLength={100} value={name} onChange={(e) => setName(e.target.value)} />
        <fieldset>
          <legend>{t('keys.kind')}</legend>
          <label className="choice">
            <input type="radio" name="kind" checked={sandbox} onChange={() => setSandbox(true)} /> {t('keys.kindSandbox')}
          </label>
          <label className="choice">
            <input type="radio" name="kind" checked={!sandbox} disabled={!canCreateLive} onChange={() => setSandbox(false)} /> {t('keys.kindLive')}
          </label>
          {!canCreateLive && <p className="hint">{t('keys.liveLocked')}</p>}
        </fieldset>
        <KeyLimitsFields draft={limits} onChange={setLimits} />
        <ApiErrorMessage error={create.error} />
        <button type="submit" className="btn btn-primary" disabled={create.isPending}>
          {t('keys.create')}
        </button>
      </form>
      {create.data && <SecretOnce label={t('keys.created.title')} secret={create.data.secret} />}
    </section>
  );
}
