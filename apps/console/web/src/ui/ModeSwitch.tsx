import { useT } from '../i18n/i18n';
import type { Mode } from './use-mode';

/** Sandbox or live, as two radio buttons: what the page below shows belongs to that world only. */
export function ModeSwitch({ mode, onChange }: { mode: Mode; onChange: (mode: Mode) => void }) {
  const t = useT();
  return (
    <fieldset className="mode-switch">
      <legend>{t('mode.label')}</legend>
      {(['live', 'sandbox'] as const).map((value) => (
        <label key={value} className="choice">
          <input type="radio" name="mode" value={value} checked={mode === value} onChange={() => onChange(value)} /> {t(`mode.${value}`)}
        </label>
      ))}
    </fieldset>
  );
}
