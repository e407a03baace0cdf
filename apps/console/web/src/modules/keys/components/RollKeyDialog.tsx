import { useState } from 'react';
import { useT } from '../../../i18n/i18n';
import { FormDialog } from '../../../ui/Modal';
import { PREVIOUS_SECRET_WINDOWS, type PreviousSecretWindow } from '../hooks/use-keys';

interface RollKeyDialogProps {
  name: string;
  onRoll: (keepPrevious: PreviousSecretWindow) => void;
  onClose: () => void;
  pending: boolean;
  error: unknown;
}

/**
 * Asks how long a key's current secret keeps working once it is regenerated (Stripe's "roll
 * key"): stopped at once, or kept for a window in which clients move to the new secret.
 */
export function RollKeyDialog({ name, onRoll, onClose, pending, error }: RollKeyDialogProps) {
  const t = useT();
  const [keepPrevious, setKeepPrevious] = useState<PreviousSecretWindow>('none');
  return (
    <FormDialog title={t('keys.rollTitle', { name })} submitLabel={t('keys.regenerate')} startOnCancel onSubmit={() => onRoll(keepPrevious)} onClose={onClose} pending={pending} error={error}>
      <fieldset className="field">
        <legend>{t('keys.rollKeep')}</legend>
        {PREVIOUS_SECRET_WINDOWS.map((window) => (
          <label key={window} className="choice">
            <input type="radio" name="keep-previous" value={window} checked={keepPrevious === window} onChange={() => setKeepPrevious(window)}/>{' '}
            {t(`keys.rollKeep.${window}`)}
          </label>
        ))}
      </fieldset>
    </FormDialog>
  );
}
