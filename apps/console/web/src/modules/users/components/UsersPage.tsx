import { useState } from 'react';
import { useT } from '../../../i18n/i18n';
import { ApiErrorMessage } from '../../../ui/ApiErrorMessage';
import { ConfirmButton, ConfirmDialog } from '../../../ui/ConfirmButton';
import { DataTable } from '../../../ui/DataTable';
import { PageHeader } from '../../../ui/PageHeader';
import { Pager } from '../../../ui/Pager';
import { usePage } from '../../../ui/use-page';
import type { Session } from '../../session/hooks/use-session';
import { useUserActions, useUsers, type ConsoleUser, type Role } from '../hooks/use-users';
import { InviteForm } from './InviteForm';
import { OpenInvitations } from './OpenInvitations';
import { ReviewPoolSection } from './ReviewPoolSection';
import { ReviewerLanguagesForm } from './ReviewerLanguagesForm';
import { RoleSelect } from './RoleSelect';

export function UsersPage({ session }: { session: Session }) {
  const t = useT();
  const { data, error } = useUsers();
  const { changeRole, remove } = useUserActions();
  const users = usePage(data?.users ?? []);
  // A role change takes rights away as easily as it gives them: it is confirmed first.
  const [roleChange, setRoleChange] = useState<{ user: ConsoleUser; role: Role }>();
  return (
    <>
      <PageHeader title={t('users.title')} intro={t('users.intro')} />
      <ApiErrorMessage error={error ?? changeRole.error ?? remove.error} />
      <DataTable
        rows={users.items}
        rowKey={(user) => user.id}
        columns={[
          { header: t('users.email'), cell: (user) => `${user.email}${user.id === session.user.id ? ` ${t('users.you')}` : ''}` },
          { header: t('users.role'), cell: (user) => <RoleSelect label={t('users.changeRole', { email: user.email })} value={user.role} onChange={(role) => setRoleChange({ user, role })} /> },
          { header: t('users.languages'), cell: (user) => (user.role === 'reviewer' ? <ReviewerLanguagesForm key={user.reviewer?.languages.join()} user={user} /> : t('value.none')) },
          {
            header: t('users.actions'),
            cell: (user) => (
              <ConfirmButton label={t('users.removeOf', { email: user.email })} question={t('users.removeConfirm', { email: user.email })} confirmLabel={t('users.remove')} onConfirm={() => remove.mutate(user.id)}>
                {t('users.remove')}
              </ConfirmButton>
            ),
          },
        ]}
      />
      <Pager {...users.pager} />
      {roleChange && (
        <ConfirmDialog
          question={t('users.changeRoleConfirm', { email: roleChange.user.email, role: t(`role.${roleChange.role}`) })}
          confirmLabel={t('users.changeRoleAction')}
          onCancel={() => setRoleChange(undefined)}
          onConfirm={() => {
            changeRole.mutate({ id: roleChange.user.id, role: roleChange.role });
            setRoleChange(undefined);
          }}
        />
      )}
      <InviteForm />
      <OpenInvitations invitations={data?.invitations ?? []} />
      <ReviewPoolSection />
    </>
  );
}
