import { useMutation } from '@tanstack/react-query';
import { useState, type FormEvent } from 'react';
import { Link, Navigate, useSearchParams } from 'react-router';
import { api, ApiProblem, unwrap } from '../../../api/client';
import type { MessageKey } from '../../../i18n/en';
import { useT } from '../../../i18n/i18n';
import { ApiErrorMessage } from '../../../ui/ApiErrorMessage';
import { Field } from '../../../ui/Field';
import { useSession, useStartSession, type SessionEnd } from '../hooks/use-session';
import { safeNext } from '../utils/safe-next';
import { AuthCard } from './AuthCard';
import { SecondFactorStep } from './SecondFactorStep';

const END_NOTICES: Record<SessionEnd, MessageKey> = {
  'signed-out': 'signIn.signedOut',
  'signed-out-everywhere': 'signIn.signedOutEverywhere',
  ended: 'signIn.expired',
};

export function SignInPage() {
  const t = useT();
  const [params] = useSearchParams();
  const { data: session } = useSession();
  const start = useStartSession();
  const [email, setEmail] = useState('');
  const [password, setPassword] = useState('');
  const [challenge, setChallenge] = useState<string>();
  const signIn = useMutation({
    mutationFn: () => unwrap(api.POST('/console/api/session', { body: { email, password } })),
    onSuccess: (answer) => ('challenge' in answer ? setChallenge(answer.challenge) : start(answer)),
  });
  if (session) return <Navigate to={safeNext(params.get('next'))} replace />;
  if (challenge) return <SecondFactorStep challenge={challenge} onRestart={() => setChallenge(undefined)} />;
  const endParam = params.get('ended') ?? '';
  const ended = Object.hasOwn(END_NOTICES, endParam) ? END_NOTICES[endParam as SessionEnd] : undefined;

  const submit = (event: FormEvent) => {
    event.preventDefault();
    signIn.mutate();
  };
  return (
    <AuthCard title={t('signIn.title')}>
      {ended && (
        <div className="alert alert-info" role="status" data-testid="session-ended">
          {t(ended)}
        </div>
      )}
      <form onSubmit={submit} className="form">
        <Field label={t('signIn.email')} type="email" autoComplete="username" required value={email} onChange={(e) => setEmail(e.target.value)} />
        <Field label={t('signIn.password')} type="password" autoComplete="current-password" required value={password} onChange={(e) => setPassword(e.target.value)} />
        <ApiErrorMessage error={signIn.error} hint={signIn.error instanceof ApiProblem && signIn.error.code === 'invalid_credentials' ? t('signIn.wrongAdvice') : undefined} />
        <button type="submit" className="btn btn-primary" disabled={signIn.isPending}>
          {t('signIn.submit')}
        </button>
      </form>
      <p>
        <Link to="/forgot-password">{t('passwordReset.forgotLink')}</Link>
      </p>
      <p>
        <Link to="/sign-up">{t('signIn.signUpLink')}</Link>
      </p>
    </AuthCard>
  );
}
