import { useT } from '../../../i18n/i18n';
import { ApiErrorMessage } from '../../../ui/ApiErrorMessage';
import type { Session } from '../../session/hooks/use-session';
import { useResendVerification } from '../hooks/use-signup';

/** Why a signed-up account has no keys yet, on every page until its sign-up is complete; its owners can have the link mailed again. */
export function SignupStatus({ session }: { session: Session }) {
  const t = useT();
  const resend = useResendVerification();
  const { account, user } = session;
  if (account.signup === 'complete') return null;
  if (account.signup === 'awaiting_approval') {
    return (
      <section className="alert alert-info" aria-labelledby="signup-status" data-testid="signup-status">
        <p>
          <strong id="signup-status">{t('signupStatus.awaitingTitle')}</strong>
        </p>
        <p>{t('signupStatus.awaiting')}</p>
      </section>
    );
  }
  return (
    <section className="alert alert-info" aria-labelledby="signup-status" data-testid="signup-status">
      <p>
        <strong id="signup-status">{t('signupStatus.unverifiedTitle')}</strong>
      </p>
      <p>{t('signupStatus.unverified', { email: user.email })}</p>
      {user.role === 'owner' && (
        <>
          <button type="button" className="btn" disabled={resend.isPending} onClick={() => resend.mutate()}>
            {t('signupStatus.resend')}
          </button>
          {resend.data && (
            <p role="status">{resend.data.mailed ? t('signupStatus.resent', { email: user.email }) : t('signupStatus.notResent')}</p>
          )}
          <ApiErrorMessage error={resend.error} />
        </>
      )}
    </section>
  );
}
