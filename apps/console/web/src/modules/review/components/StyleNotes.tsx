import { useId } from 'react';
import { useT } from '../../../i18n/i18n';
import type { ReviewTask } from '../hooks/use-review';

interface StyleNotesProps {
  style: NonNullable<ReviewTask['style']>;
  doNotTranslate: ReviewTask['do_not_translate'];
}

/** The style profile the job was translated with: its notes for reviewers and the terms that stay as they are. */
export function StyleNotes({ style, doNotTranslate }: StyleNotesProps) {
  const t = useT();
  const heading = useId();
  return (
    <aside className="card style-notes" aria-labelledby={heading}>
      <h3 id={heading}>{t('workspace.style', { name: style.name })}</h3>
      {style.notes ? <p className="style-notes-text">{style.notes}</p> : <p className="hint">{t('workspace.styleNoNotes')}</p>}
      {doNotTranslate.length > 0 && (
        <p className="hint">
          {t('workspace.styleKept')}{' '}
          {doNotTranslate.map(({ term }) => (
            <code key={term} className="chip chip-do_not_translate">
              {term}
            </code>
          ))}
        </p>
      )}
    </aside>
  );
}
