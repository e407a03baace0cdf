import { useEffect, useRef, useState, type FormEvent } from 'react';
import { useT } from '../../../i18n/i18n';
import { ApiErrorMessage } from '../../../ui/ApiErrorMessage';
import { useKeyActions, type ApiKey } from '../hooks/use-keys';
import { limitText, parseLimit } from '../utils/limit-input';
import { KeyLimitsFields } from './KeyLimitsFields';

/** Edits one key's limits in a modal; closes once the API accepted them. */
export function KeyLimitsDialog({ apiKey, name, onClose }: { apiKey: ApiKey; name: string; onClose: () => void }) {
  const t = useT();
  const dialog = useRef<HTMLDialogElement>(null);
  const { updateLimits } = useKeyActions();
  const [draft, setDraft] = useState({ monthly: limitText(apiKey.monthly_word_limit), rate: limitText(apiKey.rate_limit_per_minute) });
  useEffect(() => dialog.current?.showModal(), []);

  const submit = (event: FormEvent) => {
    event.preventDefault();
    updateLimits.mutate({ id: apiKey.id, limits: { monthly_word_limit: parseLimit(draft.monthly), rate_limit_per_minute: parseLimit(draft.rate) } }, { onSuccess: onClose });
  };
  return (
    <dialog ref={dialog} className="dialog" aria-labelledby="limits-title" onClose={onClose}>
      <form onSubmit={submit} className="form">
        <h2 id="limits-title">{t('keys.limitsTitle', { name })}</h2>
        <KeyLimitsFields draft={draft} onChange={setDraft} />
        <ApiErrorMessage error={updateLimits.error} />
        <div className="actions">
          <button type="button" className="btn" onClick={onClose}>
            {t('action.cancel')}
          </button>
          <button type="submit" className="btn btn-primary" disabled={updateLimits.isPending}>
            {t('action.save')}
          </button>
        </div>
      </form>
    </dialog>
  );
}
