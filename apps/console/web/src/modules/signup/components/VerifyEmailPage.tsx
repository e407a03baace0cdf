import type { FormEvent } from 'react';
import { Link } from 'react-router';
import { useT } from '../../../i18n/i18n';
import { ApiErrorMessage } from '../../../ui/ApiErrorMessage';
import { SecretOnce } from '../../../ui/SecretOnce';
import { AuthCard } from '../../session/components/AuthCard';
import { useLinkToken } from '../../session/hooks/use-link-token';
import { useVerifyEmail } from '../hooks/use-signup';

/**
 * The mailed link's page; the token is in the fragment, which browsers never send to a server.
 * Nothing is confirmed on opening it, only with the button: mail scanners open links too.
 */
export function VerifyEmailPage() {
  const t = useT();
  const token = useLinkToken();
  const verify = useVerifyEmail();

  if (verify.data) {
    const { account, secret } = verify.data;
    return (
      <AuthCard title={t('verify.doneTitle')}>
        <div className="alert alert-success" role="status">
          <p>{account.signup === 'complete' ? t('verify.complete', { account: account.name }) : t('verify.awaitingApproval', { account: account.name })}</p>
        </div>
        {secret && <SecretOnce label={t('verify.keyTitle')} secret={secret} />}
        <Link className="btn btn-primary" to="/">
          {t('signUp.continue')}
        </Link>
      </AuthCard>
    );
  }
  const submit = (event: FormEvent) => {
    event.preventDefault();
    verify.mutate(token);
  };
  return (
    <AuthCard title={t('verify.title')} intro={t('verify.intro')}>
      {!token && <ApiErrorMessage error={t('verify.missing')} />}
      <form onSubmit={submit} className="form">
        <ApiErrorMessage error={verify.error} />
        <button type="submit" className="btn btn-primary" disabled={!token || verify.isPending}>
          {t('verify.submit')}
        </button>
      </form>
    </AuthCard>
  );
}
