import { useState, type FormEvent } from 'react';
import { formatDateTime } from '../../../i18n/format';
import { useT } from '../../../i18n/i18n';
import { ApiErrorMessage } from '../../../ui/ApiErrorMessage';
import { Field } from '../../../ui/Field';
import { placeProblem, problemAt } from '../../../ui/field-problem';
import { SecretDialog } from '../../../ui/SecretDialog';
import { useUserActions, type Invitation, type Role } from '../hooks/use-users';
import { parseLanguages } from '../utils/language-list';
import { RoleSelect } from './RoleSelect';

export function InviteForm() {
  const t = useT();
  const { invite } = useUserActions();
  const [email, setEmail] = useState('');
  const [role, setRole] = useState<Role>('member');
  const [languages, setLanguages] = useState('');
  const submit = (event: FormEvent) => {
    event.preventDefault();
    if (invite.isPending) return;
    invite.mutate(
      { email, role, ...(role === 'reviewer' && { languages: parseLanguages(languages) as Invitation['languages'] }) },
      {
        onSuccess: () => {
          setEmail('');
          setLanguages('');
        },
      },
    );
  };
  const sent = invite.data;
  const refused = placeProblem<'email' | 'languages'>(invite.error, [
    ['email', /^email\b/i],
    ['languages', /^languages\b/i],
  ]);
  return (
    <section className="card" aria-labelledby="invite">
      <h2 id="invite">{t('users.inviteTitle')}</h2>
      <form onSubmit={submit} className="form form-inline">
        <Field label={t('users.email')} type="email" required value={email} onChange={(e) => setEmail(e.target.value)} error={problemAt(refused, 'email')} />
        <RoleSelect label={t('users.role')} value={role} onChange={setRole} />
        {role === 'reviewer' && <Field label={t('users.languages')} hint={t('users.languagesHint')} value={languages} onChange={(e) => setLanguages(e.target.value)} error={problemAt(refused, 'languages')} />}
        <button type="submit" className="btn btn-primary" disabled={invite.isPending}>
          {t('users.invite')}
        </button>
      </form>
      {refused?.field === 'form' && <ApiErrorMessage error={invite.error} />}
      {sent && (
        <SecretDialog
          title={t('users.inviteLink', { email: sent.invitation.email })}
          secret={sent.link}
          note={t(sent.mailed ? 'users.inviteLinkMailed' : 'users.inviteLinkHint', { email: sent.invitation.email, date: formatDateTime(sent.invitation.expires_at) })}
          onClose={() => invite.reset()}
        />
      )}
    </section>
  );
}
