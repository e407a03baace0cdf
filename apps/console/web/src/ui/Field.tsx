import { useId, type InputHTMLAttributes, type ReactNode, type SelectHTMLAttributes, type TextareaHTMLAttributes } from 'react';

interface ControlProps {
  id: string;
  'aria-describedby'?: string;
  'aria-invalid'?: true;
}

interface LabelledProps {
  label: string;
  hint?: string;
  /** What is wrong with the value, shown under the field and read with it. */
  error?: string;
}

/** A label, an optional hint and an optional error, tied to the control for screen readers. */
function Labelled({ label, hint, error, control }: LabelledProps & { control: (props: ControlProps) => ReactNode }) {
  const id = useId();
  const describedBy = [hint && `${id}-hint`, error && `${id}-error`].filter(Boolean).join(' ') || undefined;
  return (
    <div className="field">
      <label htmlFor={id}>{label}</label>
      {control({ id, 'aria-describedby': describedBy, ...(error && { 'aria-invalid': true as const }) })}
      {hint && (
        <p className="hint" id={`${id}-hint`}>
          {hint}
        </p>
      )}
      {error && (
        <p className="field-error" id={`${id}-error`} role="alert">
          {error}
        </p>
      )}
    </div>
  );
}

export function Field({ label, hint, error, ...input }: InputHTMLAttributes<HTMLInputElement> & LabelledProps) {
  return <Labelled label={label} hint={hint} error={error} control={(props) => <input {...props} {...input} />} />;
}

/** An authenticator app's code: digits only, the phone's number pad, and codes browsers read from messages. */
export function CodeField({ onCode, ...input }: Omit<InputHTMLAttributes<HTMLInputElement>, 'onChange'> & LabelledProps & { onCode: (code: string) => void }) {
  return <Field inputMode="numeric" autoComplete="one-time-code" minLength={6} maxLength={6} required {...input} onChange={(e) => onCode(e.target.value.replace(/\D/g, ''))} />;
}

/** A password being chosen, within the lengths the API takes. */
export function NewPasswordField(input: InputHTMLAttributes<HTMLInputElement> & LabelledProps) {
  return <Field type="password" autoComplete="new-password" minLength={12} maxLength={256} required {...input} />;
}

export function TextAreaField({ label, hint, error, ...area }: TextareaHTMLAttributes<HTMLTextAreaElement> & LabelledProps) {
  return <Labelled label={label} hint={hint} error={error} control={(props) => <textarea {...props} {...area} />} />;
}

export function SelectField({ label, hint, error, children, ...select }: SelectHTMLAttributes<HTMLSelectElement> & LabelledProps) {
  return (
    <Labelled
      label={label}
      hint={hint}
      error={error}
      control={(props) => (
        <select {...props} {...select}>
          {children}
        </select>
      )}
    />
  );
}
