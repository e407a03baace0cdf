import { useState } from 'react';
import { formatDate, formatNumber } from '../../../i18n/format';
import { useT } from '../../../i18n/i18n';
import { ApiErrorMessage } from '../../../ui/ApiErrorMessage';
import { ConfirmButton } from '../../../ui/ConfirmButton';
import { DataTable } from '../../../ui/DataTable';
import { Pager } from '../../../ui/Pager';
import { SecretOnce } from '../../../ui/SecretOnce';
import { usePage } from '../../../ui/use-page';
import { useKeyActions, type ApiKey } from '../hooks/use-keys';
import { KeyLimitsDialog } from './KeyLimitsDialog';

interface KeyActionsProps {
  apiKey: ApiKey;
  name: string;
  onEdit: (key: ApiKey) => void;
  onRegenerate: (id: string) => void;
  onRevoke: (id: string) => void;
}

function KeyActions({ apiKey, name, onEdit, onRegenerate, onRevoke }: KeyActionsProps) {
  const t = useT();
  return (
    <>
      <button type="button" className="btn" onClick={() => onEdit(apiKey)}>
        {t('keys.editLimits')}
      </button>
      <ConfirmButton className="btn" question={t('keys.regenerateConfirm', { name })} confirmLabel={t('keys.regenerate')} onConfirm={() => onRegenerate(apiKey.id)}>
        {t('keys.regenerate')}
      </ConfirmButton>
      <ConfirmButton question={t('keys.revokeConfirm', { name })} confirmLabel={t('keys.revoke')} onConfirm={() => onRevoke(apiKey.id)}>
        {t('keys.revoke')}
      </ConfirmButton>
    </>
  );
}

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
        <DataTable
          rows={items}
          rowKey={(key) => key.id}
          columns={[
            { header: t('keys.name'), cell: nameOf },
            { header: t('keys.key'), cell: (key) => <code>{`${key.prefix}…${key.hint}`}</code> },
            { header: t('keys.created'), cell: (key) => formatDate(key.created_at) },
            { header: t('keys.monthlyLimit'), cell: (key) => limit(key.monthly_word_limit) },
            { header: t('keys.rateLimit'), cell: (key) => limit(key.rate_limit_per_minute) },
            { header: t('keys.status'), cell: (key) => (key.revoked ? t('keys.revoked') : t('keys.active')) },
            {
              header: t('keys.actions'),
              className: 'row-actions',
              cell: (key) =>
                !key.revoked && <KeyActions apiKey={key} name={nameOf(key)} onEdit={setEditing} onRegenerate={regenerate.mutate} onRevoke={revoke.mutate} />,
            },
          ]}
        />
      )}
      <Pager {...pager} />
      <ApiErrorMessage error={regenerate.error ?? revoke.error} />
      {regenerate.data && <SecretOnce label={t('keys.regenerated.title')} secret={regenerate.data.secret} />}
      {editing && <KeyLimitsDialog apiKey={editing} name={nameOf(editing)} onClose={() => setEditing(undefined)} />}
    </section>
  );
}
