import { useId } from 'react';
import { formatLanguage } from '../../../i18n/format';
import { useT } from '../../../i18n/i18n';

/** The languages the reviewer reviews; the choice is in the address, so a reload keeps it. */
export function LanguagePicker({ languages, value, onChange }: { languages: string[]; value: string; onChange: (language: string) => void }) {
  const t = useT();
  const id = useId();
  return (
    <div className="field">
      <label htmlFor={id}>{t('workspace.language')}</label>
      <select id={id} value={value} onChange={(event) => onChange(event.target.value)}>
        {languages.map((language) => (
          <option key={language} value={language}>
            {formatLanguage(language)} ({language})
          </option>
        ))}
      </select>
    </div>
  );
}
