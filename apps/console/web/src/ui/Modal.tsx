import { useEffect, useId, useRef, type FormEvent, type ReactNode } from 'react';
import { useT } from '../i18n/i18n';
import { ApiErrorMessage } from './ApiErrorMessage';

/** A modal `<dialog>`, open while mounted; Escape closes it through `onClose` like any other way out. */
export function Modal({ labelledBy, onClose, children }: { labelledBy: string; onClose: () => void; children: ReactNode }) {
  const dialog = useRef<HTMLDialogElement>(null);
  useEffect(() => dialog.current?.showModal(), []);
  return (
    <dialog ref={dialog} className="dialog" aria-labelledby={labelledBy} onClose={onClose}>
      {children}
    </dialog>
  );
}

interface FormDialogProps {
  title: string;
  onSubmit: () => void;
  onClose: () => void;
  pending: boolean;
  error: unknown;
  children: ReactNode;
}

/** A form in a Modal: its fields, the API's error, Cancel and Save. */
export function FormDialog({ title, onSubmit, onClose, pending, error, children }: FormDialogProps) {
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
          <button type="button" className="btn" onClick={onClose}>
            {t('action.cancel')}
          </button>
          <button type="submit" className="btn btn-primary" disabled={pending}>
            {t('action.save')}
          </button>
        </div>
      </form>
    </Modal>
  );
}
