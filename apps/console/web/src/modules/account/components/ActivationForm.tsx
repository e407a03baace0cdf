import { vatNumberProblem } from '@platform/auth/vat-number';
import { useState, type FormEvent } from 'react';
import { useT } from '../../../i18n/i18n';
import { ApiErrorMessage } from '../../../ui/ApiErrorMessage';
import { Field, TextAreaField } from '../../../ui/Field';
import { placeProblem, problemAt } from '../../../ui/field-problem';
import { useRequestActivation } from '../hooks/use-activation';

export function ActivationForm({ pending }: { pending: boolean }) {
  const t = useT();
  const request = useRequestActivation();
  const [form, setForm] = useState({ company: '', vat_id: '', intended_use: '' });
  // The same check as the API's, before anything is sent.
  const [vatProblem, setVatProblem] = useState<string>();
  const set = (name: keyof typeof form) => (event: { target: { value: string } }) => setForm({ ...form, [name]: event.target.value });
  const refused = placeProblem<'company' | 'vat_id' | 'intended_use'>(request.error, [
    ['company', /^company\b/i],
    ['vat_id', /^(vat_id\b|the vat)/i],
    ['intended_use', /^intended_use\b/i],
  ]);
  const submit = (event: FormEvent) => {
    event.preventDefault();
    const problem = vatNumberProblem(form.vat_id);
    setVatProblem(problem);
    if (!problem) request.mutate(form);
  };
  return (
    <section className="card" aria-labelledby="activation">
      <h2 id="activation">{t('activation.title')}</h2>
      <p>{t('activation.intro')}</p>
      <form onSubmit={submit} className="form">
        <Field label={t('activation.company')} required maxLength={200} autoComplete="organization" value={form.company} onChange={set('company')} error={problemAt(refused, 'company')} />
        <Field label={t('activation.vatId')} hint={t('activation.vatHint')} required minLength={4} maxLength={20} value={form.vat_id} onChange={set('vat_id')} error={vatProblem ?? problemAt(refused, 'vat_id')} />
        <TextAreaField label={t('activation.intendedUse')} required maxLength={2000} rows={4} value={form.intended_use} onChange={set('intended_use')} error={problemAt(refused, 'intended_use')} />
        {refused?.field === 'form' && <ApiErrorMessage error={request.error} />}
        {request.isSuccess && (
          <p className="alert alert-success" role="status">
            {t('activation.sent')}
          </p>
        )}
        <button type="submit" className="btn btn-primary" disabled={request.isPending}>
          {pending ? t('activation.resubmit') : t('activation.submit')}
        </button>
      </form>
    </section>
  );
}
