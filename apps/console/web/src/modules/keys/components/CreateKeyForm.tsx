import { useRef, useState, type FormEvent } from 'react';
import { useT } from '../../../i18n/i18n';
import { ApiErrorMessage } from '../../../ui/ApiErrorMessage';
import { Field } from '../../../ui/Field';
import { placeProblem } from '../../../ui/field-problem';
import { SecretDialog } from '../../../ui/SecretDialog';
import { useKeyActions } from '../hooks/use-keys';
import { parseLimit } from '../utils/limit-input';
import { KeyLimitsFields, type LimitsDraft } from './KeyLimitsFields';

const NO_LIMITS: LimitsDraft = { monthly: '', rate: '' };

/**
 * A named key of the mode the header's switch is on, with its own limits. The secret opens in a
 * dialog and the form starts over, so that nothing invites a second key by mistake; while a
 * creation is under way, another submit does nothing.
 */
export function CreateKeyForm({ sandbox }: { sandbox: boolean }) {
  const t = useT();
  const { create } = useKeyActions();
  const [name, setName] = useState('');
  const [limits, setLimits] = useState<LimitsDraft>(NO_LIMITS);
  const [nameMissing, setNameMissing] = useState(false);
  // Set at once, unlike the mutation's state: a double click submits twice before React renders again.
  const sending = useRef(false);
  const form = useRef<HTMLFormElement>(null);
  const refused = placeProblem<'name'>(create.error, [['name', /^name\b/i]]);

  const submit = (event: FormEvent) => {
    event.preventDefault();
    if (sending.current) return;
    const trimmed = name.trim();
    setNameMissing(trimmed === '');
    if (trimmed === '') return;
    sending.current = true;
    create.mutate(
      { name: trimmed, sandbox, monthly_word_limit: parseLimit(limits.monthly), rate_limit_per_minute: parseLimit(limits.rate) },
      {
        onSuccess: () => {
          setName('');
          setLimits(NO_LIMITS);
        },
        onSettled: () => {
          sending.current = false;
        },
      },
    );
  };
  // Back in the emptied form, ready for the next key (the Create button it was sent with was disabled meanwhile).
  const closeSecret = () => {
    create.reset();
    form.current?.querySelector<HTMLInputElement>('input[name="name"]')?.focus();
  };
  return (
    <section className="card" aria-labelledby="create-key">
      <h2 id="create-key">{t('keys.createTitle')}</h2>
      <form ref={form} onSubmit={submit} className="form" noValidate>
        <Field
          label={t('keys.name')}
          name="name"
          hint={t('keys.nameHint')}
          maxLength={100}
          required
          value={name}
          onChange={(e) => setName(e.target.value)}
          error={nameMissing ? t('keys.nameMissing') : refused?.field === 'name' ? refused.message : undefined}
        />
        <p className="hint">{t(sandbox ? 'keys.kindSandbox' : 'keys.kindLive')}</p>
        <KeyLimitsFields draft={limits} onChange={setLimits} />
        {refused?.field === 'form' && <ApiErrorMessage error={create.error} />}
        <button type="submit" className="btn btn-primary" disabled={create.isPending}>
          {create.isPending ? t('keys.creating') : t('keys.create')}
        </button>
      </form>
      {create.data && (
        <SecretDialog title={t('keys.created.title', { name: create.data.key.name ?? '' })} secret={create.data.secret} note={t('keys.secretNote')} onClose={closeSecret} />
      )}
    </section>
  );
}
