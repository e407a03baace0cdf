import { useEffect, useRef, useState, type ReactNode } from 'react';
import { useT } from '../i18n/i18n';

interface ConfirmButtonProps {
  children: ReactNode;
  /** The question, naming what will be lost. */
  question: string;
  confirmLabel: string;
  onConfirm: () => void;
  disabled?: boolean;
  className?: string;
}

/** A destructive action behind a modal question; Escape or Cancel leaves everything as it was. */
export function ConfirmButton({ children, question, confirmLabel, onConfirm, disabled, className = 'btn btn-danger' }: ConfirmButtonProps) {
  const t = useT();
  const dialog = useRef<HTMLDialogElement>(null);
  const [open, setOpen] = useState(false);

  useEffect(() => {
    if (open) dialog.current?.showModal();
    else dialog.current?.close();
  }, [open]);

  return (
    <>
      <button type="button" className={className} disabled={disabled} onClick={() => setOpen(true)}>
        {children}
      </button>
      {open && (
        <dialog ref={dialog} className="dialog" aria-labelledby="confirm-question" onClose={() => setOpen(false)}>
          <p id="confirm-question">{question}</p>
          <div className="actions">
            <button type="button" className="btn" autoFocus onClick={() => setOpen(false)}>
              {t('action.cancel')}
            </button>
            <button
              type="button"
              className="btn btn-danger"
              onClick={() => {
                setOpen(false);
                onConfirm();
              }}
            >
              {confirmLabel}
            </button>
          </div>
        </dialog>
      )}
    </>
  );
}
