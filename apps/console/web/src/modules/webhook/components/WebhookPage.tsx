import { useState, type FormEvent } from 'react';
import { useT } from '../../../i18n/i18n';
import { ApiErrorMessage } from '../../../ui/ApiErrorMessage';
import { ConfirmButton } from '../../../ui/ConfirmButton';
import { Field } from '../../../ui/Field';
import { placeProblem, problemAt } from '../../../ui/field-problem';
import { PageHeader } from '../../../ui/PageHeader';
import { SecretDialog } from '../../../ui/SecretDialog';
import { useMode, type Mode } from '../../mode/hooks/use-mode';
import { useWebhook, useWebhookActions } from '../hooks/use-webhook';
import { DeliveryLog } from './DeliveryLog';

export function WebhookPage() {
  const t = useT();
  const mode = useMode();
  return (
    <>
      <PageHeader title={t('webhook.title')} intro={t('webhook.intro')} />
      <Endpoint mode={mode} />
      <DeliveryLog mode={mode} />
    </>
  );
}

function Endpoint({ mode }: { mode: Mode }) {
  const t = useT();
  const { data, error, isPending } = useWebhook(mode);
  const { register, rotate, remove } = useWebhookActions(mode);
  const [url, setUrl] = useState<string>();
  const endpoint = data?.webhook ?? null;
  const shownUrl = url ?? endpoint?.url ?? '';
  const registeredSecret = register.data && 'secret' in register.data.webhook ? register.data.webhook.secret : undefined;
  const secret = rotate.data?.webhook.secret ?? registeredSecret;
  const closeSecret = () => {
    rotate.reset();
    if (registeredSecret) register.reset();
  };

  const refused = placeProblem<'url'>(register.error, [['url', /^url\b/i]]);
  const submit = (event: FormEvent) => {
    event.preventDefault();
    if (register.isPending) return;
    rotate.reset();
    register.mutate(shownUrl.trim());
  };
  if (isPending) return <p className="loading">{t('app.loading')}</p>;
  return (
    <section className="card" aria-labelledby="endpoint">
      <h2 id="endpoint">{t('webhook.endpoint')}</h2>
      <ApiErrorMessage error={error} />
      {!endpoint && <p>{t('webhook.none')}</p>}
      {endpoint?.disabled && (
        <div className="alert alert-error" role="alert">
          {t('webhook.disabled', { reason: endpoint.disabled_reason ?? '' })}
        </div>
      )}
      <form className="form" onSubmit={submit}>
        <Field label={t('webhook.url')} hint={t('webhook.urlHint')} type="url" required maxLength={2048} value={shownUrl} onChange={(e) => setUrl(e.target.value)} error={problemAt(refused, 'url')} />
        {refused?.field === 'form' && <ApiErrorMessage error={register.error} />}
        {register.isSuccess && !secret && (
          <div className="alert alert-success" role="status">
            {t('webhook.saved')}
          </div>
        )}
        <button type="submit" className="btn btn-primary" disabled={register.isPending}>
          {endpoint ? t('webhook.change') : t('webhook.register')}
        </button>
      </form>
      {secret && <SecretDialog title={t(rotate.data ? 'webhook.secretRotated' : 'webhook.secret')} secret={secret} note={t('webhook.secretNote')} onClose={closeSecret} />}
      {endpoint && (
        <div className="actions">
          <ConfirmButton className="btn" disabled={rotate.isPending} question={t('webhook.rotateConfirm')} confirmLabel={t('webhook.rotate')} onConfirm={() => rotate.mutate()}>
            {t('webhook.rotate')}
          </ConfirmButton>
          <ConfirmButton question={t('webhook.removeConfirm')} confirmLabel={t('webhook.remove')} onConfirm={() => remove.mutate(undefined, { onSuccess: () => setUrl(undefined) })}>
            {t('webhook.remove')}
          </ConfirmButton>
        </div>
      )}
      <ApiErrorMessage error={rotate.error ?? remove.error} />
    </section>
  );
}
