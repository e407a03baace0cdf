import { useState, type FormEvent } from 'react';
import { Link } from 'react-router';
import { useT } from '../../../i18n/i18n';
import { ApiErrorMessage } from '../../../ui/ApiErrorMessage';
import { Field } from '../../../ui/Field';
import { placeProblem, problemAt } from '../../../ui/field-problem';
import { AuthCard } from '../../session/components/AuthCard';
import { useRequestReset } from '../hooks/use-password-reset';

/** Asks for a reset link; what it says afterwards is the same whether or not the address has a user. */
export function ForgotPasswordPage() {
  const t = useT();
  const [email, setEmail] = useState('');
  const request = useRequestReset();

  if (request.data) {
    const minutes = request.data.link_valid_minutes;
    return (
      <AuthCard title={t('passwordReset.sentTitle')}>
        <div className="alert alert-info" role="status">
          <p>{minutes === 60 ? t('passwordReset.sentHour', { email: request.variables }) : t('passwordReset.sentMinutes', { email: request.variables, minutes })}</p>
          <p>{t('passwordReset.sentAdvice')}</p>
        </div>
        <div className="actions">
          <Link className="btn btn-primary" to="/sign-in">
            {t('passwordReset.backToSignIn')}
          </Link>
          <button type="button" className="btn" onClick={() => request.reset()}>
            {t('passwordReset.askAgain')}
          </button>
        </div>
      </AuthCard>
    );
  }
  const refused = placeProblem<'email'>(request.error, [['email', /^email\b/i]]);
  const submit = (event: FormEvent) => {
    event.preventDefault();
    request.mutate(email.trim());
  };
  return (
    <AuthCard title={t('passwordReset.askTitle')} intro={t('passwordReset.askIntro')}>
      <form onSubmit={submit} className="form">
        <Field
          label={t('signIn.email')}
          type="email"
          autoComplete="username"
          required
          maxLength={254}
          value={email}
          onChange={(e) => setEmail(e.target.value)}
          error={problemAt(refused, 'email')}
        />
        {refused?.field === 'form' && <ApiErrorMessage error={request.error} />}
        <button type="submit" className="btn btn-primary" disabled={request.isPending}>
          {t('passwordReset.ask')}
        </button>
      </form>
      <p>
        <Link to="/sign-in">{t('passwordReset.backToSignIn')}</Link>
      </p>
    </AuthCard>
  );
}
