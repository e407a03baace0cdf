import { useEffect, useId, useRef, type FormEvent, type ReactNode } from 'react';
import { useT } from '../i18n/i18n';
import { ApiErrorMessage } from './ApiErrorMessage';

interface ModalProps {
  labelledBy: string;
  /** The text a screen reader reads with the title as the dialog opens. */
  describedBy?: string;
  onClose: () => void;
  children: ReactNode;
}

/**
 * A modal `<dialog>`, open while mounted; Escape closes it through `onClose` like any other way
 * out. It opens on the element marked `data-autofocus`, or else on its first control.
 */
export function Modal({ labelledBy, describedBy, onClose, children }: ModalProps) {
  const dialog = useRef<HTMLDialogElement>(null);
  useEffect(() => {
    dialog.current?.showModal();
    dialog.current?.querySelector<HTMLElement>('[data-autofocus]')?.focus();
  }, []);
  return (
    <dialog ref={dialog} className="dialog" aria-labelledby={labelledBy} aria-describedby={describedBy} onClose={onClose}>
      {children}
    </dialog>
  );
}

interface FormDialogProps {
  title: string;
  /** The submit button's words; Save unless the form does something else. */
  submitLabel?: string;
  /** Opens on Cancel, as confirmations of what cannot be undone do, rather than on the first field. */
  startOnCancel?: boolean;
  onSubmit: () => void;
  onClose: () => void;
  pending: boolean;
  error: unknown;
  children: ReactNode;
}

/** A form in a Modal: its fields, the API's error, Cancel and Save. */
export function FormDialog({ title, submitLabel, startOnCancel, onSubmit, onClose, pending, error, children }: FormDialogProps) {
  const t = useT();
  const titleId = useId();
  const submit = (event: FormEvent) => {
    event.preventDefault();
    onSubmit();
  };
  return (
    <Modal labelledBy={titleId} onClose={onClose}>
      <form onSubmit={submit} className="form">
        <h2 id={titleId}>{title}</h2>
        {children}
        <ApiErrorMessage error={error} />
        <div className="actions">
          <button type="button" className="btn" onClick={onClose} data-autofocus={startOnCancel || undefined}>
            {t('action.cancel')}
          </button>
          <button type="submit" className="btn btn-primary" disabled={pending}>
            {submitLabel ?? t('action.save')}
          </button>
        </div>
      </form>
    </Modal>
  );
}
