import { useState } from 'react';
import { useT } from '../../../i18n/i18n';
import { FormDialog } from '../../../ui/Modal';
import { useKeyActions, type ApiKey } from '../hooks/use-keys';
import { limitText, parseLimit } from '../utils/limit-input';
import { KeyLimitsFields } from './KeyLimitsFields';

/** Edits one key's limits in a modal; closes once the API accepted them. */
export function KeyLimitsDialog({ apiKey, name, onClose }: { apiKey: ApiKey; name: string; onClose: () => void }) {
  const t = useT();
  const { updateLimits } = useKeyActions();
  const [draft, setDraft] = useState({ monthly: limitText(apiKey.monthly_word_limit), rate: limitText(apiKey.rate_limit_per_minute) });
  const save = () => updateLimits.mutate({ id: apiKey.id, limits: { monthly_word_limit: parseLimit(draft.monthly), rate_limit_per_minute: parseLimit(draft.rate) } }, { onSuccess: onClose });
  return (
    <FormDialog title={t('keys.limitsTitle', { name })} onSubmit={save} onClose={onClose} pending={updateLimits.isPending} error={updateLimits.error}>
      <KeyLimitsFields draft={draft} onChange={setDraft} />
    </FormDialog>
  );
}
