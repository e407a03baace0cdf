import { formatDate, formatDateTime } from '../../../i18n/format';
import { useT } from '../../../i18n/i18n';
import { ApiErrorMessage } from '../../../ui/ApiErrorMessage';
import { ConfirmButton } from '../../../ui/ConfirmButton';
import { DataTable } from '../../../ui/DataTable';
import { Pager } from '../../../ui/Pager';
import { SecretDialog } from '../../../ui/SecretDialog';
import { usePage } from '../../../ui/use-page';
import { useImageTokenActions, useImageTokens } from '../hooks/use-images';

/** A subscription's tokens, newest first, a page at a time; create one (shown once) or revoke one. */
export function ImageTokens({ subscriptionId, active }: { subscriptionId: string; active: boolean }) {
  const t = useT();
  const { data, error, isPending } = useImageTokens(subscriptionId);
  const { create, revoke } = useImageTokenActions(subscriptionId);
  const { items, pager } = usePage([...(data?.tokens ?? [])].reverse(), 10);
  const heading = `tokens-${subscriptionId}`;
  return (
    <section aria-labelledby={heading}>
      <h3 id={heading}>{t('images.tokens')}</h3>
      {isPending && <p className="loading">{t('app.loading')}</p>}
      {data && data.tokens.length === 0 && <p>{t('images.tokensNone')}</p>}
      {items.length > 0 && (
        <DataTable
          rows={items}
          rowKey={(token) => token.id}
          columns={[
            { header: t('images.token'), cell: (token) => <code>{`${token.prefix}…${token.hint}`}</code> },
            { header: t('images.created'), cell: (token) => formatDate(token.created_at) },
            { header: t('images.lastUsed'), cell: (token) => (token.last_used_at ? formatDateTime(token.last_used_at) : t('images.neverUsed')) },
            { header: t('images.status'), cell: (token) => (token.revoked_at ? t('images.tokenRevoked', { date: formatDate(token.revoked_at) }) : t('images.tokenActive')) },
            {
              header: t('images.actions'),
              className: 'row-actions',
              cell: (token) =>
                !token.revoked_at && (
                  <ConfirmButton label={t('images.revokeOf', { hint: token.hint })} question={t('images.revokeConfirm', { hint: token.hint })} confirmLabel={t('images.revoke')} onConfirm={() => revoke.mutate(token.id)}>
                    {t('images.revoke')}
                  </ConfirmButton>
                ),
            },
          ]}
        />
      )}
      <Pager {...pager} />
      <ApiErrorMessage error={error ?? create.error ?? revoke.error} />
      <div className="actions">
        <button type="button" className="btn btn-primary" disabled={!active || create.isPending} onClick={() => create.mutate()}>
          {create.isPending ? t('images.creatingToken') : t('images.createToken')}
        </button>
      </div>
      {!active && <p className="hint">{t('images.createInactive')}</p>}
      {create.data && <SecretDialog title={t('images.tokenCreated')} secret={create.data.secret} note={t('images.tokenNote')} onClose={() => create.reset()} />}
    </section>
  );
}
