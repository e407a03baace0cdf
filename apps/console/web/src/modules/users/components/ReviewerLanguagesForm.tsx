import { useState, type FormEvent } from 'react';
import { useT } from '../../../i18n/i18n';
import { ApiErrorMessage } from '../../../ui/ApiErrorMessage';
import { Field } from '../../../ui/Field';
import { useUserActions, type ConsoleUser, type Languages } from '../hooks/use-users';
import { parseLanguages } from '../utils/language-list';

/** The languages a reviewer reviews, as the owner sets them; and whether an operator revoked the reviewer. */
export function ReviewerLanguagesForm({ user }: { user: ConsoleUser }) {
  const t = useT();
  const { setLanguages } = useUserActions();
  const [value, setValue] = useState((user.reviewer?.languages ?? []).join(', '));
  const submit = (event: FormEvent) => {
    event.preventDefault();
    setLanguages.mutate({ id: user.id, languages: parseLanguages(value) as Languages });
  };
  return (
    <form className="form-inline" onSubmit={submit}>
      <Field label={t('users.languagesOf', { email: user.email })} value={value} onChange={(e) => setValue(e.target.value)} />
      <button type="submit" className="btn" aria-label={t('users.saveLanguagesOf', { email: user.email })} disabled={setLanguages.isPending}>
        {t('action.save')}
      </button>
      {user.reviewer?.revoked_at && <p className="hint">{t('users.reviewerRevoked')}</p>}
      <ApiErrorMessage error={setLanguages.error} />
    </form>
  );
}
