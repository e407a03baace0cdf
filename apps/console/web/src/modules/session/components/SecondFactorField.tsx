import { useT } from '../../../i18n/i18n';
import { CodeField, Field } from '../../../ui/Field';

interface SecondFactorFieldProps {
  recovery: boolean;
  onSwitch: (recovery: boolean) => void;
  value: string;
  onChange: (value: string) => void;
  error?: string;
  autoFocus?: boolean;
}

/**
 * A code of the authenticator app (digits only, offered by the phone's keyboard and by browsers
 * that read codes from messages), or, after the switch, a recovery code.
 */
export function SecondFactorField({ recovery, onSwitch, value, onChange, error, autoFocus }: SecondFactorFieldProps) {
  const t = useT();
  return (
    <>
      {recovery ? (
        <Field
          key="recovery"
          label={t('twoStep.recoveryCode')}
          hint={t('twoStep.recoveryCodeHint')}
          autoComplete="off"
          autoCapitalize="none"
          spellCheck={false}
          maxLength={64}
          required
          autoFocus={autoFocus}
          value={value}
          onChange={(e) => onChange(e.target.value)}
          error={error}
        />
      ) : (
        <CodeField
          key="code"
          label={t('twoStep.code')}
          autoFocus={autoFocus}
          value={value}
          onCode={onChange}
          error={error}
        />
      )}
      <button type="button" className="btn btn-link" onClick={() => onSwitch(!recovery)}>
        {recovery ? t('twoStep.useAppCode') : t('twoStep.useRecoveryCode')}
      </button>
    </>
  );
}
