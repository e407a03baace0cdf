import { useId } from 'react';
import { useT } from '../i18n/i18n';
import { Modal } from './Modal';
import { CopyValue } from './CopyValue';

interface SecretDialogProps {
  title: string;
  secret: string;
  /** What the secret is for or what to do with it, after the sentence that it is shown once. */
  note?: string;
  onClose: () => void;
}

/**
 * A secret the server will never show again, in a modal that takes the focus (on Copy) and is
 * announced with its title and the warning that it is shown once; Done or Escape closes it, and
 * the focus returns to where it was.
 */
export function SecretDialog({ title, secret, note, onClose }: SecretDialogProps) {
  const t = useT();
  const titleId = useId();
  const noteId = useId();
  return (
    <Modal labelledBy={titleId} describedBy={noteId} onClose={onClose}>
      <div className="secret">
        <h2 id={titleId}>{title}</h2>
        <p id={noteId}>
          <strong>{t('secret.once')}</strong>
          {note && ` ${note}`}
        </p>
        <CopyValue value={secret} testId="secret" autoFocus />
      </div>
      <form method="dialog" className="actions">
        <button type="submit" className="btn btn-primary">
          {t('secret.done')}
        </button>
      </form>
    </Modal>
  );
}
