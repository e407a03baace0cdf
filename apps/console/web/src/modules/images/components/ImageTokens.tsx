import { formatDate } from '../../../i18n/format';
import { useT } from '../../../i18n/i18n';
import { ApiErrorMessage } from '../../../ui/ApiErrorMessage';
import { ConfirmButton } from '../../../ui/ConfirmButton';
import { Pager } from '../../../ui/Pager';
import { SecretOnce } from '../../../ui/SecretOnce';
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
        <div className="table-wrap">
          <table>
            <thead>
              <tr>
                <th scope="col">{t('images.token')}</th>
                <th scope="col">{t('images.created')}</th>
                <th scope="col">{t('images.status')}</th>
                <th scope="col">{t('images.actions')}</th>
              </tr>
            </thead>
            <tbody>
              {items.map((token) => (
                <tr key={token.id}>
                  <td>
                    <code>{`${token.prefix}…${token.hint}`}</code>
                  </td>
                  <td>{formatDate(token.created_at)}</td>
                  <td>{token.revoked_at ? t('images.tokenRevoked', { date: formatDate(token.revoked_at) }) : t('images.tokenActive')}</td>
                  <td className="row-actions">
                    {!token.revoked_at && (
                      <ConfirmButton question={t('images.revokeConfirm', { hint: token.hint })} confirmLabel={t('images.revoke')} onConfirm={() => revoke.mutate(token.id)}>
                        {t('images.revoke')}
                      </ConfirmButton>
                    )}
                  </td>
                </tr>
              ))}
            </tbody>
          </table>
        </div>
      )}
      <Pager {...pager} />
      <ApiErrorMessage error={error ?? create.error ?? revoke.error} />
      <div className="actions">
        <button type="button" className="btn btn-primary" disabled={!active || create.isPending} onClick={() => create.mutate()}>
          {t('images.createToken')}
        </button>
      </div>
      {!active && <p className="hint">{t('images.createInactive')}</p>}
      {create.data && <SecretOnce label={t('images.tokenCreated')} secret={create.data.secret} note={t('images.tokenNote')} />}
    </section>
  );
}
