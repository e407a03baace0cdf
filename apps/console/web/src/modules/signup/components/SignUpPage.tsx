import { useState, type FormEvent } from 'react';
import { Link } from 'react-router';
import { useT } from '../../../i18n/i18n';
import { ApiErrorMessage } from '../../../ui/ApiErrorMessage';
import { Field } from '../../../ui/Field';
import { placeProblem, problemAt } from '../../../ui/field-problem';
import { AuthCard } from '../../session/components/AuthCard';
import { useStartSession } from '../../session/hooks/use-session';
import { useSignUp } from '../hooks/use-signup';

export function SignUpPage() {
  const t = useT();
  const start = useStartSession();
  const [form, setForm] = useState({ account_name: '', email: '', password: '' });
  const signUp = useSignUp();
  const set = (name: keyof typeof form) => (event: { target: { value: string } }) => setForm({ ...form, [name]: event.target.value });

  if (signUp.data) {
    const created = signUp.data;
    return (
      <AuthCard title={t('signUp.checkMailTitle')}>
        <div className={`alert ${created.mailed ? 'alert-info' : 'alert-error'}`} role="status">
          <p>{created.mailed ? t('signUp.checkMail', { email: created.user.email }) : t('signUp.notMailed', { email: created.user.email })}</p>
        </div>
        <p>{t('signUp.noKeyYet')}</p>
        <Link className="btn btn-primary" to="/" onClick={() => start(created)}>
          {t('signUp.continue')}
        </Link>
      </AuthCard>
    );
  }
  const refused = placeProblem<'account_name' | 'email' | 'password'>(signUp.error, [
    ['account_name', /^(account_name\b|an account (named|name))/i],
    ['email', /^email\b/i],
    ['password', /^password\b/i],
  ]);
  const submit = (event: FormEvent) => {
    event.preventDefault();
    signUp.mutate(form);
  };
  return (
    <AuthCard title={t('signUp.title')} intro={t('signUp.intro')}>
      <form onSubmit={submit} className="form">
        <Field label={t('signUp.accountName')} required maxLength={200} autoComplete="organization" value={form.account_name} onChange={set('account_name')} error={problemAt(refused, 'account_name')} />
        <Field label={t('signIn.email')} type="email" required autoComplete="email" value={form.email} onChange={set('email')} error={problemAt(refused, 'email')} />
        <Field label={t('invitation.password')} hint={t('invitation.hint')} type="password" required minLength={12} maxLength={256} autoComplete="new-password" value={form.password} onChange={set('password')} error={problemAt(refused, 'password')} />
        {refused?.field === 'form' && <ApiErrorMessage error={signUp.error} />}
        <button type="submit" className="btn btn-primary" disabled={signUp.isPending}>
          {t('signUp.submit')}
        </button>
      </form>
    </AuthCard>
  );
}
