import { useId, type InputHTMLAttributes, type ReactNode, type TextareaHTMLAttributes } from 'react';

interface ControlProps {
  id: string;
  'aria-describedby'?: string;
}

/** A label and an optional hint, tied to the control for screen readers. */
function Labelled({ label, hint, control }: { label: string; hint?: string; control: (props: ControlProps) => ReactNode }) {
  const id = useId();
  return (
    <div className="field">
      <label htmlFor={id}>{label}</label>
      {control({ id, 'aria-describedby': hint ? `${id}-hint` : undefined })}
      {hint && (
        <p className="hint" id={`${id}-hint`}>
          {hint}
        </p>
      )}
    </div>
  );
}

export function Field({ label, hint, ...input }: InputHTMLAttributes<HTMLInputElement> & { label: string; hint?: string }) {
  return <Labelled label={label} hint={hint} control={(props) => <input {...props} {...input} />} />;
}

export function TextAreaField({ label, hint, ...area }: TextareaHTMLAttributes<HTMLTextAreaElement> & { label: string; hint?: string }) {
  return <Labelled label={label} hint={hint} control={(props) => <textarea {...props} {...area} />} />;
}
