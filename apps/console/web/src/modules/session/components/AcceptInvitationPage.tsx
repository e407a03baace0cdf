import { useMutation } from '@tanstack/react-query';
import { useState, type FormEvent } from 'react';
import { Navigate } from 'react-router';
import { api, unwrap } from '../../../api/client';
import { useT } from '../../../i18n/i18n';
import { ApiErrorMessage } from '../../../ui/ApiErrorMessage';
import { NewPasswordField } from '../../../ui/Field';
import { placeProblem, problemAt } from '../../../ui/field-problem';
import { useLinkToken } from '../hooks/use-link-token';
import { useStartSession } from '../hooks/use-session';
import { AuthCard } from './AuthCard';

/** The invitation link's page; the token is in the fragment, which browsers never send to a server. */
export function AcceptInvitationPage() {
  const t = useT();
  const token = useLinkToken();
  const start = useStartSession();
  const [password, setPassword] = useState('');
  const accept = useMutation({
    mutationFn: () => unwrap(api.POST('/console/api/invitations/accept', { body: { token, password } })),
    onSuccess: start,
  });
  if (accept.isSuccess) return <Navigate to="/" replace />;
  const refused = placeProblem<'password'>(accept.error, [['password', /^password\b/i]]);

  const submit = (event: FormEvent) => {
    event.preventDefault();
    accept.mutate();
  };
  return (
    <AuthCard title={t('invitation.title')} intro={t('invitation.intro')}>
      {!token && <ApiErrorMessage error={t('invitation.missing')} />}
      <form onSubmit={submit} className="form">
        <NewPasswordField
          label={t('invitation.password')}
          hint={t('invitation.hint')}
          value={password}
          onChange={(e) => setPassword(e.target.value)}
          error={problemAt(refused, 'password')}
        />
        {refused?.field === 'form' && <ApiErrorMessage error={accept.error} />}
        <button type="submit" className="btn btn-primary" disabled={!token || accept.isPending}>
          {t('invitation.submit')}
        </button>
      </form>
    </AuthCard>
  );
}
