import { useT } from '../../../i18n/i18n';
import { ApiErrorMessage } from '../../../ui/ApiErrorMessage';
import { ConfirmButton } from '../../../ui/ConfirmButton';
import { PageHeader } from '../../../ui/PageHeader';
import { useSignOut, type Session } from '../../session/hooks/use-session';
import { ActivationForm } from './ActivationForm';
import { TwoStepSignIn } from './TwoStepSignIn';

export function AccountPage({ session }: { session: Session }) {
  const t = useT();
  const signOut = useSignOut();
  const { account, user } = session;
  return (
    <>
      <PageHeader title={t('account.title')} />
      <dl className="facts">
        <dt>{t('account.name')}</dt>
        <dd>{account.name}</dd>
        <dt>{t('account.state')}</dt>
        <dd data-testid="activation-state">{t(`account.state.${account.activation}`)}</dd>
      </dl>
      {user.role === 'owner' && account.activation !== 'active' && account.signup === 'complete' && <ActivationForm pending={account.activation === 'pending'} />}
      <TwoStepSignIn email={user.email} />
      <section aria-labelledby="sessions">
        <h2 id="sessions">{t('account.sessions')}</h2>
        <p>{t('account.sessionsIntro')}</p>
        <ConfirmButton question={t('account.sessionsIntro')} confirmLabel={t('user.signOutEverywhere')} onConfirm={() => signOut.mutate(true)}>
          {t('user.signOutEverywhere')}
        </ConfirmButton>
        <ApiErrorMessage error={signOut.error} />
      </section>
    </>
  );
}
