import { useMutation } from '@tanstack/react-query';
import { useState, type FormEvent } from 'react';
import { Link, Navigate, useSearchParams } from 'react-router';
import { api, unwrap } from '../../../api/client';
import { useT } from '../../../i18n/i18n';
import { ApiErrorMessage } from '../../../ui/ApiErrorMessage';
import { Field } from '../../../ui/Field';
import { useSession, useStartSession } from '../hooks/use-session';
import { safeNext } from '../utils/safe-next';
import { AuthCard } from './AuthCard';

export function SignInPage() {
  const t = useT();
  const [params] = useSearchParams();
  const { data: session } = useSession();
  const start = useStartSession();
  const [email, setEmail] = useState('');
  const [password, setPassword] = useState('');
  const signIn = useMutation({
    mutationFn: () => unwrap(api.POST('/console/api/session', { body: { email, password } })),
    onSuccess: start,
  });
  if (session) return <Navigate to={safeNext(params.get('next'))} replace />;

  const submit = (event: FormEvent) => {
    event.preventDefault();
    signIn.mutate();
  };
  return (
    <AuthCard title={t('signIn.title')}>
      <form onSubmit={submit} className="form">
        <Field label={t('signIn.email')} type="email" autoComplete="username" required value={email} onChange={(e) => setEmail(e.target.value)} />
        <Field label={t('signIn.password')} type="password" autoComplete="current-password" required value={password} onChange={(e) => setPassword(e.target.value)} />
        <ApiErrorMessage error={signIn.error} />
        <button type="submit" className="btn btn-primary" disabled={signIn.isPending}>
          {t('signIn.submit')}
        </button>
      </form>
      <p>
        <Link to="/sign-up">{t('signIn.signUpLink')}</Link>
      </p>
    </AuthCard>
  );
}
