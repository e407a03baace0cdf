import { useRef, useState } from 'react';
import { useT } from '../i18n/i18n';

type CopyOutcome = 'idle' | 'copied' | 'failed';

/** Selects the whole value, so that Ctrl+C (or the context menu) copies it where the clipboard API cannot. */
const selectAll = (element: HTMLElement) => window.getSelection()?.selectAllChildren(element);

interface CopyValueProps {
  value: string;
  /** What is shown when it differs from what is copied (a key in groups of four). */
  shown?: string;
  /** What is copied, after the button's "Copy" in its accessible name, when that alone would not say (one of many in a table). */
  what?: string;
  testId?: string;
  /** The button takes the focus when a Modal opens. */
  autoFocus?: boolean;
}

/**
 * A value (a secret, an id) with a Copy button that says what happened: "Copied" only once the
 * clipboard took it; when the browser refuses (no clipboard API outside HTTPS, permission
 * denied), a failure, with the value selected for copying by hand.
 */
export function CopyValue({ value, shown: display = value, what, testId, autoFocus = false }: CopyValueProps) {
  const t = useT();
  const shown = useRef<HTMLElement>(null);
  const [outcome, setOutcome] = useState<CopyOutcome>('idle');
  const buttonText = outcome === 'copied' ? t('secret.copied') : t('action.copy');
  const copy = async () => {
    try {
      if (!navigator.clipboard) throw new Error('no clipboard');
      await navigator.clipboard.writeText(value);
      setOutcome('copied');
    } catch {
      setOutcome('failed');
      shown.current?.focus();
    }
  };
  return (
    <div className="copy-value">
      <code data-testid={testId} ref={shown} tabIndex={-1} onFocus={(event) => selectAll(event.currentTarget)}>
        {display}
      </code>
      <button type="button" className="btn" aria-label={what && `${buttonText} ${what}`} data-autofocus={autoFocus || undefined} onClick={copy}>
        {buttonText}
      </button>
      {/* Always in the page, so that screen readers announce what is written into it. */}
      <p className="copy-outcome" role="status">
        {outcome === 'copied' && t('secret.copiedStatus')}
      </p>
      {outcome === 'failed' && (
        <p className="field-error" role="alert">
          {t('secret.copyFailed')}
        </p>
      )}
    </div>
  );
}
