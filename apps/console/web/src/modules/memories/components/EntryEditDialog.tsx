import { useState } from 'react';
import { formatLanguage, formatNumber } from '../../../i18n/format';
import { useT } from '../../../i18n/i18n';
import { TextAreaField } from '../../../ui/Field';
import { FormDialog } from '../../../ui/Modal';
import type { Mode } from '../../mode/hooks/use-mode';
import { useMemoryActions, type MemoryEntry } from '../hooks/use-memories';
import { entryProblem } from '../utils/memory-problems';

interface EntryEditDialogProps {
  mode: Mode;
  memoryId: string;
  entry: MemoryEntry;
  /** Characters a side may have (the API's limit), checked here first. */
  maxLength?: number;
  onClose: () => void;
}

/** A source and its translation in a modal form; a side left blank or too long is named beside it before anything is sent. */
export function EntryEditDialog({ mode, memoryId, entry, maxLength, onClose }: EntryEditDialogProps) {
  const t = useT();
  const { editEntry } = useMemoryActions(mode);
  const [source, setSource] = useState(entry.source);
  const [target, setTarget] = useState(entry.target);
  const [checked, setChecked] = useState<{ source?: string; target?: string }>({});
  const refused = entryProblem(editEntry.error);
  const problemOf = (text: string) =>
    text.trim() === '' ? t('memories.textMissing') : maxLength && text.length > maxLength ? t('memories.textTooLong', { max: formatNumber(maxLength) }) : undefined;

  const save = () => {
    const problems = { source: problemOf(source), target: problemOf(target) };
    setChecked(problems);
    if (problems.source || problems.target) return;
    // Only a side that changed is sent: the other keeps its inline codes exactly as stored.
    const changed = { ...(source !== entry.source && { source }), ...(target !== entry.target && { target }) };
    if (Object.keys(changed).length === 0) return onClose();
    editEntry.mutate({ id: memoryId, entryId: entry.id, ...changed }, { onSuccess: onClose });
  };

  return (
    <FormDialog title={t('memories.editTitle')} onSubmit={save} onClose={onClose} pending={editEntry.isPending} error={refused?.field === 'form' ? editEntry.error : undefined}>
      <p className="hint">{t('memories.editHint')}</p>
      <TextAreaField
        label={t('memories.entrySourceIn', { language: formatLanguage(entry.source_lang) })}
        lang={entry.source_lang}
        rows={3}
        value={source}
        onChange={(event) => setSource(event.target.value)}
        error={checked.source ?? (refused?.field === 'source' ? refused.message : undefined)}
      />
      <TextAreaField
        label={t('memories.entryTargetIn', { language: formatLanguage(entry.target_lang) })}
        lang={entry.target_lang}
        rows={3}
        value={target}
        onChange={(event) => setTarget(event.target.value)}
        error={checked.target ?? (refused?.field === 'target' ? refused.message : undefined)}
      />
    </FormDialog>
  );
}
