import { useState, type FormEvent } from 'react';
import { Link } from 'react-router';
import { ApiProblem } from '../../../api/client';
import type { MessageKey } from '../../../i18n/en';
import { useT } from '../../../i18n/i18n';
import { ApiErrorMessage } from '../../../ui/ApiErrorMessage';
import { Field, NewPasswordField } from '../../../ui/Field';
import { placeProblem, problemAt } from '../../../ui/field-problem';
import { AuthCard } from '../../session/components/AuthCard';
import { useLinkToken } from '../../session/hooks/use-link-token';
import { useCompleteReset, useResetLink } from '../hooks/use-password-reset';

/** The headings of a link that cannot be used, by the API's refusal. */
const UNUSABLE: Record<string, MessageKey> = {
  link_expired: 'passwordReset.expiredTitle',
  link_used: 'passwordReset.usedTitle',
  not_found: 'passwordReset.unknownTitle',
};

const unusableTitle = (error: unknown): MessageKey | undefined => (error instanceof ApiProblem ? UNUSABLE[error.code] : undefined);

/** A link that cannot be used: why, in the API's words, and the way to a new one. */
function UnusableLink({ title, error }: { title: MessageKey; error: unknown }) {
  const t = useT();
  return (
    <AuthCard title={t(title)}>
      {/* The buttons below are the advice: no general one besides. */}
      <ApiErrorMessage error={error} hint="" />
      <div className="actions">
        <Link className="btn btn-primary" to="/forgot-password">
          {t('passwordReset.requestNew')}
        </Link>
        <Link className="btn" to="/sign-in">
          {t('passwordReset.backToSignIn')}
        </Link>
      </div>
    </AuthCard>
  );
}

/**
 * The mailed link's page; the token is in the fragment, which browsers never send to a server.
 * The link is checked on opening, so that an expired or used one says so before a password is
 * typed; only the button uses it.
 */
export function ResetPasswordPage() {
  const t = useT();
  const token = useLinkToken();
  const link = useResetLink(token);
  const complete = useCompleteReset();
  const [password, setPassword] = useState('');
  const [confirmation, setConfirmation] = useState('');
  const [mismatch, setMismatch] = useState(false);

  if (!token) {
    return (
      <AuthCard title={t('passwordReset.unknownTitle')}>
        <ApiErrorMessage error={t('passwordReset.missing')} />
        <Link to="/forgot-password">{t('passwordReset.requestNew')}</Link>
      </AuthCard>
    );
  }
  if (complete.isSuccess) {
    return (
      <AuthCard title={t('passwordReset.doneTitle')}>
        <div className="alert alert-success" role="status">
          <p>{t('passwordReset.done')}</p>
        </div>
        <Link className="btn btn-primary" to="/sign-in">
          {t('passwordReset.signIn')}
        </Link>
      </AuthCard>
    );
  }
  const refusedLink = unusableTitle(complete.error) ?? unusableTitle(link.error);
  if (refusedLink) return <UnusableLink title={refusedLink} error={complete.error ?? link.error} />;
  if (link.isPending) {
    return (
      <AuthCard title={t('passwordReset.title')}>
        <p className="loading">{t('passwordReset.checking')}</p>
      </AuthCard>
    );
  }
  if (link.error) {
    return (
      <AuthCard title={t('passwordReset.title')}>
        <ApiErrorMessage error={link.error} />
      </AuthCard>
    );
  }

  const refused = placeProblem<'password'>(complete.error, [['password', /^password\b/i]]);
  const submit = (event: FormEvent) => {
    event.preventDefault();
    const differ = password !== confirmation;
    setMismatch(differ);
    if (!differ) complete.mutate({ token, password });
  };
  return (
    <AuthCard title={t('passwordReset.title')} intro={t('passwordReset.intro', { email: link.data.email })}>
      <form onSubmit={submit} className="form">
        {/* For password managers: whose password this is. */}
        <input type="email" name="username" autoComplete="username" value={link.data.email} readOnly hidden />
        <NewPasswordField
          label={t('passwordReset.password')}
          hint={t('invitation.hint')}
          value={password}
          onChange={(e) => setPassword(e.target.value)}
          error={problemAt(refused, 'password')}
        />
        <Field
          label={t('passwordReset.confirm')}
          type="password"
          autoComplete="new-password"
          required
          maxLength={256}
          value={confirmation}
          onChange={(e) => setConfirmation(e.target.value)}
          error={mismatch ? t('passwordReset.mismatch') : undefined}
        />
        {refused?.field === 'form' && <ApiErrorMessage error={complete.error} />}
        <button type="submit" className="btn btn-primary" disabled={complete.isPending}>
          {t('passwordReset.submit')}
        </button>
      </form>
    </AuthCard>
  );
}
