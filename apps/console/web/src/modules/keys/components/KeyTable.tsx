import { useState } from 'react';
import { formatDate, formatDateTime, formatNumber } from '../../../i18n/format';
import { useT } from '../../../i18n/i18n';
import { ApiErrorMessage } from '../../../ui/ApiErrorMessage';
import { ConfirmButton } from '../../../ui/ConfirmButton';
import { DataTable } from '../../../ui/DataTable';
import { Pager } from '../../../ui/Pager';
import { SecretDialog } from '../../../ui/SecretDialog';
import { usePage } from '../../../ui/use-page';
import { useKeyActions, type ApiKey } from '../hooks/use-keys';
import { KeyLimitsDialog } from './KeyLimitsDialog';
import { RollKeyDialog } from './RollKeyDialog';

interface KeyActionsProps {
  apiKey: ApiKey;
  name: string;
  onEdit: (key: ApiKey) => void;
  onRegenerate: (key: ApiKey) => void;
  onRevoke: (id: string) => void;
  /** A regeneration or revocation is under way: one at a time. */
  pending: boolean;
}

function KeyActions({ apiKey, name, onEdit, onRegenerate, onRevoke, pending }: KeyActionsProps) {
  const t = useT();
  return (
    <>
      <button type="button" className="btn" aria-label={t('keys.editLimitsOf', { name })} onClick={() => onEdit(apiKey)}>
        {t('keys.editLimits')}
      </button>
      <button type="button" className="btn" aria-label={t('keys.regenerateOf', { name })} disabled={pending} onClick={() => onRegenerate(apiKey)}>
        {t('keys.regenerate')}
      </button>
      <ConfirmButton label={t('keys.revokeOf', { name })} disabled={pending} question={t('keys.revokeConfirm', { name })} confirmLabel={t('keys.revoke')} onConfirm={() => onRevoke(apiKey.id)}>
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
  const [rolling, setRolling] = useState<ApiKey>();
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
            { header: t('keys.lastUsed'), cell: (key) => (key.last_used_at ? formatDateTime(key.last_used_at) : t('keys.neverUsed')) },
            {
              header: t('keys.status'),
              cell: (key) => (
                <>
                  {key.revoked ? t('keys.revoked') : t('keys.active')}
                  {key.previous_secret_expires_at && <span className="hint"> · {t('keys.previousUntil', { when: formatDateTime(key.previous_secret_expires_at) })}</span>}
                </>
              ),
            },
            {
              header: t('keys.actions'),
              className: 'row-actions',
              cell: (key) =>
                !key.revoked && <KeyActions apiKey={key} name={nameOf(key)} onEdit={setEditing} onRegenerate={setRolling} onRevoke={revoke.mutate} pending={regenerate.isPending || revoke.isPending} />,
            },
          ]}
        />
      )}
      <Pager {...pager} />
      <ApiErrorMessage error={revoke.error} />
      {rolling && (
        <RollKeyDialog
          name={nameOf(rolling)}
          pending={regenerate.isPending}
          error={regenerate.error}
          onRoll={(keepPrevious) => regenerate.mutate({ id: rolling.id, keepPrevious }, { onSuccess: () => setRolling(undefined) })}
          onClose={() => {
            setRolling(undefined);
            if (regenerate.isError) regenerate.reset();
          }}
        />
      )}
      {regenerate.data && (
        <SecretDialog title={t('keys.regenerated.title', { name: nameOf(regenerate.data.key) })} secret={regenerate.data.secret} note={t('keys.secretNote')} onClose={() => regenerate.reset()} />
      )}
      {editing && <KeyLimitsDialog apiKey={editing} name={nameOf(editing)} onClose={() => setEditing(undefined)} />}
    </section>
  );
}
