import { useState, type ReactNode } from 'react';
import { useT } from '../i18n/i18n';
import { Modal } from './Modal';

interface ConfirmDialogProps {
  /** The question, naming what will be lost. */
  question: string;
  confirmLabel: string;
  onConfirm: () => void;
  onCancel: () => void;
}

/** A modal question; it opens on Cancel, and Escape or Cancel leaves everything as it was. */
export function ConfirmDialog({ question, confirmLabel, onConfirm, onCancel }: ConfirmDialogProps) {
  const t = useT();
  return (
    <Modal labelledBy="confirm-question" onClose={onCancel}>
      <p id="confirm-question">{question}</p>
      <div className="actions">
        <button type="button" className="btn" autoFocus onClick={onCancel}>
          {t('action.cancel')}
        </button>
        <button type="button" className="btn btn-danger" onClick={onConfirm}>
          {confirmLabel}
        </button>
      </div>
    </Modal>
  );
}

interface ConfirmButtonProps extends Omit<ConfirmDialogProps, 'onCancel'> {
  children: ReactNode;
  /** The button's accessible name when its text alone would not say which row it is about; it starts with that text. */
  label?: string;
  disabled?: boolean;
  className?: string;
}

/** A destructive action behind a ConfirmDialog. */
export function ConfirmButton({ children, label, question, confirmLabel, onConfirm, disabled, className = 'btn btn-danger' }: ConfirmButtonProps) {
  const [open, setOpen] = useState(false);
  return (
    <>
      <button type="button" className={className} aria-label={label} disabled={disabled} onClick={() => setOpen(true)}>
        {children}
      </button>
      {open && (
        <ConfirmDialog
          question={question}
          confirmLabel={confirmLabel}
          onCancel={() => setOpen(false)}
          onConfirm={() => {
            setOpen(false);
            onConfirm();
          }}
        />
      )}
    </>
  );
}
