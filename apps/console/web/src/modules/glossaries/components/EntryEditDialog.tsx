import { useState } from 'react';
import { useT } from '../../../i18n/i18n';
import { Field } from '../../../ui/Field';
import { FormDialog } from '../../../ui/Modal';
import type { Mode } from '../../mode/hooks/use-mode';
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
  const { editEntry } = useGlossaryActions(mode);
  const [term, setTerm] = useState(entry.term);
  const [translations, setTranslations] = useState<Record<string, string>>(() => Object.fromEntries(targets.map((language) => [language, entry.translations[language] ?? ''])));

  const save = () => {
    const given = Object.fromEntries(Object.entries(translations).filter(([, text]) => text.trim() !== ''));
    editEntry.mutate({ id: glossaryId, entry: { index: entry.index, term, translations: given } }, { onSuccess: onClose });
  };

  return (
    <FormDialog title={t('glossaries.editTitle')} onSubmit={save} onClose={onClose} pending={editEntry.isPending} error={editEntry.error}>
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
    </FormDialog>
  );
}
