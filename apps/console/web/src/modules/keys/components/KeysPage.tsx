import { useT } from '../../../i18n/i18n';
import { ApiErrorMessage } from '../../../ui/ApiErrorMessage';
import { PageHeader } from '../../../ui/PageHeader';
import { useMode } from '../../mode/hooks/use-mode';
import type { Session } from '../../session/hooks/use-session';
import { useKeys } from '../hooks/use-keys';
import { CreateKeyForm } from './CreateKeyForm';
import { KeyTable } from './KeyTable';

export function KeysPage({ session }: { session: Session }) {
  const t = useT();
  const sandbox = useMode() === 'sandbox';
  const { data, error, isPending } = useKeys();
  const keys = (data?.keys ?? []).filter((key) => key.sandbox === sandbox);
  return (
    <>
      <PageHeader title={t('keys.title')} intro={t('keys.intro')} />
      <ApiErrorMessage error={error} />
      {isPending ? (
        <p className="loading">{t('app.loading')}</p>
      ) : (
        <KeyTable title={t(sandbox ? 'keys.sandbox' : 'keys.live')} keys={keys} />
      )}
      {session.account.signup === 'complete' ? <CreateKeyForm sandbox={sandbox} /> : <p className="hint">{t('keys.signupIncomplete')}</p>}
    </>
  );
}
