import { formatDateTime } from '../../../i18n/format';
import { useT } from '../../../i18n/i18n';
import { ApiErrorMessage } from '../../../ui/ApiErrorMessage';
import { ConfirmButton } from '../../../ui/ConfirmButton';
import { DataTable } from '../../../ui/DataTable';
import { Pager } from '../../../ui/Pager';
import { SecretDialog } from '../../../ui/SecretDialog';
import { usePage } from '../../../ui/use-page';
import { useUserActions, type OpenInvitation } from '../hooks/use-users';

/** Invitations not yet accepted: each can be sent again with a new link (shown once, like the first) or withdrawn. */
export function OpenInvitations({ invitations }: { invitations: OpenInvitation[] }) {
  const t = useT();
  const { resendInvitation, revokeInvitation } = useUserActions();
  const { items, pager } = usePage(invitations);
  const resent = resendInvitation.data;
  const pending = resendInvitation.isPending || revokeInvitation.isPending;
  return (
    <section aria-labelledby="invitations">
      <h2 id="invitations">{t('users.invitations')}</h2>
      {invitations.length === 0 ? (
        <p>{t('users.noInvitations')}</p>
      ) : (
        <DataTable
          label={t('users.invitationsTable')}
          rows={items}
          rowKey={(invitation) => invitation.id}
          columns={[
            { header: t('users.email'), rowHeader: true, cell: (invitation) => invitation.email },
            { header: t('users.role'), cell: (invitation) => t(`role.${invitation.role}`) },
            { header: t('users.expires'), cell: (invitation) => formatDateTime(invitation.expires_at) },
            {
              header: t('users.actions'),
              className: 'row-actions',
              cell: (invitation) => (
                <>
                  <ConfirmButton
                    className="btn"
                    label={t('users.resendOf', { email: invitation.email })}
                    disabled={pending}
                    question={t('users.resendConfirm', { email: invitation.email })}
                    confirmLabel={t('users.resend')}
                    onConfirm={() => resendInvitation.mutate(invitation.id)}
                  >
                    {t('users.resend')}
                  </ConfirmButton>
                  <ConfirmButton
                    label={t('users.revokeInvitationOf', { email: invitation.email })}
                    disabled={pending}
                    question={t('users.revokeInvitationConfirm', { email: invitation.email })}
                    confirmLabel={t('users.revokeInvitation')}
                    onConfirm={() => revokeInvitation.mutate(invitation.id)}
                  >
                    {t('users.revokeInvitation')}
                  </ConfirmButton>
                </>
              ),
            },
          ]}
        />
      )}
      <Pager {...pager} />
      <ApiErrorMessage error={resendInvitation.error ?? revokeInvitation.error} />
      {revokeInvitation.data && (
        <div className="alert alert-success" role="status">
          {t('users.invitationRevoked', { email: revokeInvitation.data.invitation.email })}
        </div>
      )}
      {resent && (
        <SecretDialog
          title={t('users.inviteLink', { email: resent.invitation.email })}
          secret={resent.link}
          note={t(resent.mailed ? 'users.inviteLinkMailed' : 'users.inviteLinkHint', { email: resent.invitation.email, date: formatDateTime(resent.invitation.expires_at) })}
          onClose={() => resendInvitation.reset()}
        />
      )}
    </section>
  );
}
