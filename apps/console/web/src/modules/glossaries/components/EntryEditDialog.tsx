import { useEffect, useRef, useState, type FormEvent } from 'react';
import { useT } from '../../../i18n/i18n';
import { ApiErrorMessage } from '../../../ui/ApiErrorMessage';
import { Field } from '../../../ui/Field';
import type { Mode } from '../../../ui/use-mode';
import { useGlossaryActions, type GlossaryEntry } from '../hooks/use-glossaries';

interface EntryEditDialogProps {
  mode: Mode;
  glossaryId: string;
  entry: GlossaryEntry;
  /** The glossary's target languages: one field each, empty for none. */
  targets: string[];
  onClose: () => void;
}

/** One term and its translations in a modal form; the API checks it as part of the whole glossary. */
export function EntryEditDialog({ mode, glossaryId, entry, targets, onClose }: EntryEditDialogProps) {
  const t = useT();
  const dialog = useRef<HTMLDialogElement>(null);
  const { editEntry } = useGlossaryActions(mode);
  const [term, setTerm] = useState(entry.term);
  const [translations, setTranslations] = useState<Record<string, string>>(() => Object.fromEntries(targets.map((language) => [language, entry.translations[language] ?? ''])));

  useEffect(() => dialog.current?.showModal(), []);

  const submit = (event: FormEvent) => {
    event.preventDefault();
    const given = Object.fromEntries(Object.entries(translations).filter(([, text]) => text.trim() !== ''));
    editEntry.mutate({ id: glossaryId, entry: { index: entry.index, term, translations: given } }, { onSuccess: onClose });
  };

  return (
    <dialog ref={dialog} className="dialog" aria-labelledby="entry-edit-title" onClose={onClose}>
      <h2 id="entry-edit-title">{t('glossaries.editTitle')}</h2>
      <form className="form" onSubmit={submit}>
        <Field label={t('glossaries.term')} required value={term} onChange={(e) => setTerm(e.target.value)} />
        {targets.map((language) => (
          <Field
            key={language}
            label={t('glossaries.translationInto', { language })}
            hint={t('glossaries.translationHint')}
            value={translations[language]}
            onChange={(e) => setTranslations({ ...translations, [language]: e.target.value })}
          />
        ))}
        <ApiErrorMessage error={editEntry.error} />
        <div className="actions">
          <button type="button" className="btn" onClick={onClose}>
            {t('action.cancel')}
          </button>
          <button type="submit" className="btn btn-primary" disabled={editEntry.isPending}>
            {t('action.save')}
          </button>
        </div>
      </form>
    </dialog>
  );
}
