import { useMutation } from '@tanstack/react-query';
import { useState, type FormEvent } from 'react';
import { api, ApiProblem, unwrap } from '../../../api/client';
import type { components } from '../../../api/session-api';
import { useT } from '../../../i18n/i18n';
import { ApiErrorMessage } from '../../../ui/ApiErrorMessage';
import { placeProblem, problemAt } from '../../../ui/field-problem';
import { useStartSession } from '../hooks/use-session';
import { AuthCard } from './AuthCard';
import { SecondFactorField } from './SecondFactorField';

type SecondFactorSession = components['schemas']['SecondFactorSessionResponseDto'];

/**
 * Sign-in's second step, after the right password of a user with two-step sign-in: a code of
 * the app, or a recovery code; after a recovery code, how many are left before going on. A
 * challenge that expired or was used leads back to the password.
 */
export function SecondFactorStep({ challenge, onRestart }: { challenge: string; onRestart: () => void }) {
  const t = useT();
  const start = useStartSession();
  const [recovery, setRecovery] = useState(false);
  const [value, setValue] = useState('');
  const [recovered, setRecovered] = useState<SecondFactorSession>();
  const complete = useMutation({
    mutationFn: () => unwrap(api.POST('/console/api/session/second-factor', { body: { challenge, ...(recovery ? { recovery_code: value } : { code: value }) } })),
    onSuccess: (session) => (session.recovery_codes_left === undefined ? start(session) : setRecovered(session)),
  });

  if (recovered) {
    return (
      <AuthCard title={t('signIn.recoveryUsedTitle')}>
        <div className="alert alert-info" role="status">
          <p>{t('signIn.recoveryUsed', { count: recovered.recovery_codes_left ?? 0 })}</p>
          <p>{t('signIn.recoveryUsedAdvice')}</p>
        </div>
        <button type="button" className="btn btn-primary" autoFocus onClick={() => start(recovered)}>
          {t('signIn.continue')}
        </button>
      </AuthCard>
    );
  }

  const expired = complete.error instanceof ApiProblem && complete.error.code === 'challenge_expired';
  const refused = placeProblem<'value'>(complete.error, [['value', /^(code|recovery_code)\b/]]);
  const submit = (event: FormEvent) => {
    event.preventDefault();
    complete.mutate();
  };
  const switchTo = (toRecovery: boolean) => {
    setRecovery(toRecovery);
    setValue('');
    complete.reset();
  };
  return (
    <AuthCard title={t('signIn.codeTitle')} intro={recovery ? t('signIn.recoveryIntro') : t('signIn.codeIntro')}>
      <form onSubmit={submit} className="form">
        <SecondFactorField recovery={recovery} onSwitch={switchTo} value={value} onChange={setValue} error={problemAt(refused, 'value')} autoFocus />
        {refused?.field === 'form' && <ApiErrorMessage error={complete.error} hint={complete.error instanceof ApiProblem && complete.error.code === 'invalid_code' && !recovery ? t('signIn.codeAdvice') : undefined} />}
        {expired ? (
          <button type="button" className="btn btn-primary" onClick={onRestart}>
            {t('signIn.restart')}
          </button>
        ) : (
          <button type="submit" className="btn btn-primary" disabled={complete.isPending}>
            {t('signIn.codeSubmit')}
          </button>
        )}
      </form>
    </AuthCard>
  );
}
