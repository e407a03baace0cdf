import { useMutation } from '@tanstack/react-query';
import { useState, type FormEvent } from 'react';
import { Link } from 'react-router';
import { api, unwrap } from '../../../api/client';
import { useT } from '../../../i18n/i18n';
import { ApiErrorMessage } from '../../../ui/ApiErrorMessage';
import { Field } from '../../../ui/Field';
import { SecretOnce } from '../../../ui/SecretOnce';
import { useStartSession } from '../hooks/use-session';
import { AuthCard } from './AuthCard';

export function SignUpPage() {
  const t = useT();
  const start = useStartSession();
  const [form, setForm] = useState({ account_name: '', email: '', password: '' });
  const signUp = useMutation({ mutationFn: () => unwrap(api.POST('/console/api/signup', { body: form })) });
  const set = (name: keyof typeof form) => (event: { target: { value: string } }) => setForm({ ...form, [name]: event.target.value });

  if (signUp.data) {
    const created = signUp.data;
    return (
      <AuthCard title={t('signUp.keyTitle')}>
        <SecretOnce label={t('signUp.keyTitle')} secret={created.secret} />
        <Link className="btn btn-primary" to="/" onClick={() => start(created)}>
          {t('signUp.continue')}
        </Link>
      </AuthCard>
    );
  }
  const submit = (event: FormEvent) => {
    event.preventDefault();
    signUp.mutate();
  };
  return (
    <AuthCard title={t('signUp.title')} intro={t('signUp.intro')}>
      <form onSubmit={submit} className="form">
        <Field label={t('signUp.accountName')} required maxLength={200} autoComplete="organization" value={form.account_name} onChange={set('account_name')} />
        <Field label={t('signIn.email')} type="email" required autoComplete="email" value={form.email} onChange={set('email')} />
        <Field label={t('invitation.password')} hint={t('invitation.hint')} type="password" required minLength={12} maxLength={256} autoComplete="new-password" value={form.password} onChange={set('password')} />
        <ApiErrorMessage error={signUp.error} />
        <button type="submit" className="btn btn-primary" disabled={signUp.isPending}>
          {t('signUp.submit')}
        </button>
      </form>
    </AuthCard>
  );
}
