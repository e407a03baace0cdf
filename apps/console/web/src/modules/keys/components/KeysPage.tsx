import { useT } from '../../../i18n/i18n';
import { ApiErrorMessage } from '../../../ui/ApiErrorMessage';
import { PageHeader } from '../../../ui/PageHeader';
import type { Session } from '../../session/hooks/use-session';
import { useKeys } from '../hooks/use-keys';
import { CreateKeyForm } from './CreateKeyForm';
import { KeyTable } from './KeyTable';

export function KeysPage({ session }: { session: Session }) {
  const t = useT();
  const { data, error, isPending } = useKeys();
  const keys = data?.keys ?? [];
  return (
    <>
      <PageHeader title={t('keys.title')} intro={t('keys.intro')} />
      <ApiErrorMessage error={error} />
      {isPending ? (
        <p className="loading">{t('app.loading')}</p>
      ) : (
        <>
          <KeyTable title={t('keys.live')} keys={keys.filter((key) => !key.sandbox)} />
          <KeyTable title={t('keys.sandbox')} keys={keys.filter((key) => key.sandbox)} />
        </>
      )}
      {session.account.signup === 'complete' ? <CreateKeyForm canCreateLive={session.account.activation === 'active'} /> : <p className="hint">{t('keys.signupIncomplete')}</p>}
    </>
  );
}
