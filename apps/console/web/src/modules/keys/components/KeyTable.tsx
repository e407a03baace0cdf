import { useState } from 'react';
import { formatDate, formatNumber } from '../../../i18n/format';
import { useT } from '../../../i18n/i18n';
import { ApiErrorMessage } from '../../../ui/ApiErrorMessage';
import { ConfirmButton } from '../../../ui/ConfirmButton';
import { Pager } from '../../../ui/Pager';
import { SecretOnce } from '../../../ui/SecretOnce';
import { usePage } from '../../../ui/use-page';
import { useKeyActions, type ApiKey } from '../hooks/use-keys';
import { KeyLimitsDialog } from './KeyLimitsDialog';

/** One kind of keys (sandbox or live), a page at a time, with their actions. */
export function KeyTable({ title, keys }: { title: string; keys: ApiKey[] }) {
  const t = useT();
  const { regenerate, revoke } = useKeyActions();
  const [editing, setEditing] = useState<ApiKey>();
  const { items, pager } = usePage(keys);
  const limit = (value: number | null) => (value === null ? t('value.unlimited') : formatNumber(value));
  const nameOf = (key: ApiKey) => key.name ?? t('keys.unnamed');

  return (
    <section aria-labelledby={`keys-${title}`}>
      <h2 id={`keys-${title}`}>{title}</h2>
      {keys.length === 0 ? (
        <p>{t('keys.none')}</p>
      ) : (
        <div className="table-wrap">
          <table>
            <thead>
              <tr>
                <th scope="col">{t('keys.name')}</th>
                <th scope="col">{t('keys.key')}</th>
                <th scope="col">{t('keys.created')}</th>
                <th scope="col">{t('keys.monthlyLimit')}</th>
                <th scope="col">{t('keys.rateLimit')}</th>
                <th scope="col">{t('keys.status')}</th>
                <th scope="col">{t('keys.actions')}</th>
              </tr>
            </thead>
            <tbody>
              {items.map((key) => (
                <tr key={key.id}>
                  <td>{nameOf(key)}</td>
                  <td>
                    <code>{`${key.prefix}…${key.hint}`}</code>
                  </td>
                  <td>{formatDate(key.created_at)}</td>
                  <td>{limit(key.monthly_word_limit)}</td>
                  <td>{limit(key.rate_limit_per_minute)}</td>
                  <td>{key.revoked ? t('keys.revoked') : t('keys.active')}</td>
                  <td className="row-actions">
                    {!key.revoked && (
                      <>
                        <button type="button" className="btn" onClick={() => setEditing(key)}>
                          {t('keys.editLimits')}
                        </button>
                        <ConfirmButton className="btn" question={t('keys.regenerateConfirm', { name: nameOf(key) })} confirmLabel={t('keys.regenerate')} onConfirm={() => regenerate.mutate(key.id)}>
                          {t('keys.regenerate')}
                        </ConfirmButton>
                        <ConfirmButton question={t('keys.revokeConfirm', { name: nameOf(key) })} confirmLabel={t('keys.revoke')} onConfirm={() => revoke.mutate(key.id)}>
                          {t('keys.revoke')}
                        </ConfirmButton>
                      </>
                    )}
                  </td>
                </tr>
              ))}
            </tbody>
          </table>
        </div>
      )}
      <Pager {...pager} />
      <ApiErrorMessage error={regenerate.error ?? revoke.error} />
      {regenerate.data && <SecretOnce label={t('keys.regenerated.title')} secret={regenerate.data.secret} />}
      {editing && <KeyLimitsDialog apiKey={editing} name={nameOf(editing)} onClose={() => setEditing(undefined)} />}
    </section>
  );
}
