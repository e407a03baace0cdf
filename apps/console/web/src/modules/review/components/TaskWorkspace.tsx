import { checkEdit, describeEditProblems, type EditRules } from '@platform/review/edit-check';
import { withSegmentReplaced } from '@platform/translation-memory/reviewed-segments';
import { useId, useMemo, useState } from 'react';
import { formatDateTime, formatLanguage } from '../../../i18n/format';
import { useT } from '../../../i18n/i18n';
import { ApiErrorMessage } from '../../../ui/ApiErrorMessage';
import { TextAreaField } from '../../../ui/Field';
import { useNow } from '../hooks/use-now';
import { useTaskActions, type MemorySuggestion, type ReviewTask, type SuggestedSegment } from '../hooks/use-review';
import { useShortcuts } from '../hooks/use-shortcuts';
import { serialise, stateFromText, type TokenEditorState } from '../utils/token-editor-state';
import { HighlightedText } from './HighlightedText';
import { LeaseClock } from './LeaseClock';
import { MemorySuggestions } from './MemorySuggestions';
import { StyleNotes } from './StyleNotes';
import { TermChecklist } from './TermChecklist';
import { TokenEditor } from './TokenEditor';

interface TaskWorkspaceProps {
  task: ReviewTask;
  leaseSeconds: number;
  onAnswered: (answer: 'approved' | 'edited') => void;
}

type Notice = { kind: 'error' | 'info'; text: string };

/** One task: source and machine translation side by side, and for a task the reviewer holds, the editor, the lease and the answers. */
export function TaskWorkspace({ task, leaseSeconds, onAnswered }: TaskWorkspaceProps) {
  const t = useT();
  const heading = useId();
  const editorLabel = useId();
  const held = task.status === 'claimed';
  const actions = useTaskActions(task.target);
  const doNotTranslate = useMemo(() => task.do_not_translate.map(({ term, case_sensitive }) => ({ term, caseSensitive: case_sensitive })), [task]);
  const rules: EditRules = useMemo(() => ({ format: task.format, tokens: task.tokens, terms: task.terms, doNotTranslate }), [task, doNotTranslate]);
  const editorState = (from: string) => stateFromText(from, task.tokens, doNotTranslate);
  const [chips, setChips] = useState<TokenEditorState>(() => editorState(task.machine_translation)!);
  const [plain, setPlain] = useState<string | null>(null);
  const [notice, setNotice] = useState<Notice | null>(null);
  const text = plain ?? serialise(chips, task.tokens);
  const dirty = text !== task.machine_translation;
  const problems = useMemo(() => checkEdit(rules, task.machine_translation, text), [rules, task.machine_translation, text]);
  const now = useNow();
  const leaseOver = held && task.lease_until !== null && Date.parse(task.lease_until) <= now;

  const approve = () => {
    if (!held || actions.approve.isPending) return;
    if (dirty) return setNotice({ kind: 'error', text: t('workspace.approveDirty') });
    actions.approve.mutate(task.id, { onSuccess: () => onAnswered('approved') });
  };
  const save = () => {
    if (!held || actions.edit.isPending) return;
    if (!dirty) return setNotice({ kind: 'info', text: t('workspace.nothingChanged') });
    // The server refuses the same edits; refusing here first says why without a round trip.
    if (problems.length > 0) return setNotice({ kind: 'error', text: t('workspace.refused', { reason: describeEditProblems(problems) }) });
    actions.edit.mutate({ id: task.id, translation: text }, { onSuccess: () => onAnswered('edited') });
  };
  const reset = () => {
    setChips(editorState(task.machine_translation)!);
    setPlain(null);
    setNotice(null);
  };
  const togglePlain = (on: boolean) => {
    if (on) return setPlain(text);
    const back = editorState(text);
    if (!back) {
      const lost = problems.filter((problem) => problem.kind !== 'term' && problem.kind !== 'json');
      return setNotice({ kind: 'error', text: t('workspace.plainTextBack', { reason: describeEditProblems(lost) }) });
    }
    setChips(back);
    setPlain(null);
    setNotice(null);
  };
  /** The suggestion in its segment's place: in the chips while it keeps the machine translation's tokens, as plain text otherwise. */
  const insert = (segment: SuggestedSegment, suggestion: MemorySuggestion) => {
    const next = withSegmentReplaced(task.format, task.source_text, text, segment, suggestion.target);
    if (next === null) return setNotice({ kind: 'error', text: t('suggestions.noPlace') });
    const back = plain === null ? editorState(next) : null;
    if (back) {
      setChips(back);
      return setNotice({ kind: 'info', text: t('suggestions.inserted') });
    }
    setPlain(next);
    const lost = checkEdit(rules, task.machine_translation, next).filter((problem) => problem.kind !== 'term' && problem.kind !== 'json');
    setNotice({ kind: 'info', text: lost.length > 0 ? t('suggestions.insertedPlain', { reason: describeEditProblems(lost) }) : t('suggestions.inserted') });
  };
  useShortcuts(held ? { approve, save } : {});

  const error = actions.approve.error ?? actions.edit.error ?? actions.renew.error;
  return (
    <article className="task" aria-labelledby={heading}>
      <h2 id={heading}>{t('workspace.task', { index: task.index + 1, job: task.job })}</h2>
      {held && task.lease_until && (
        <LeaseClock
          leaseUntil={task.lease_until}
          leaseSeconds={leaseSeconds}
          now={now}
          renewing={actions.renew.isPending}
          onRenew={() => actions.renew.mutate(task.id, { onSuccess: ({ lease_until }) => setNotice({ kind: 'info', text: t('workspace.renewed', { time: formatDateTime(lease_until) }) }) })}
          onTakeNext={actions.takeNext}
        />
      )}
      {task.style && <StyleNotes style={task.style} doNotTranslate={task.do_not_translate} />}
      <div className="side-by-side">
        <section className="card" aria-labelledby={`${heading}-source`}>
          <h3 id={`${heading}-source`}>{t('workspace.source', { language: task.source_language ? formatLanguage(task.source_language) : '?' })}</h3>
          <HighlightedText text={task.source_text} terms={task.terms} side="source" lang={task.source_language} doNotTranslate={doNotTranslate} />
        </section>
        <section className="card" aria-labelledby={`${heading}-machine`}>
          <h3 id={`${heading}-machine`}>{t('workspace.machine', { language: formatLanguage(task.target) })}</h3>
          <HighlightedText text={task.machine_translation} terms={task.terms} side="translation" lang={task.target} doNotTranslate={doNotTranslate} />
        </section>
      </div>

      {held ? (
        <div className="edit-with-memory">
          <section className="card" aria-labelledby={editorLabel}>
            <h3 id={editorLabel}>{t('workspace.editor')}</h3>
            {plain === null ? (
              <TokenEditor tokens={task.tokens} state={chips} onChange={setChips} onRefuse={(message) => setNotice({ kind: 'error', text: message })} lang={task.target} labelledBy={editorLabel} />
            ) : (
              <TextAreaField label={t('workspace.plainTextLabel')} hint={t('workspace.plainTextHint')} lang={task.target} rows={6} value={plain} onChange={(event) => setPlain(event.target.value)} />
            )}
            {task.tokens.length > 0 && (
              <label className="choice">
                <input type="checkbox" checked={plain !== null} onChange={(event) => togglePlain(event.target.checked)} />
                {t('workspace.plainText')}
              </label>
            )}
            <TermChecklist terms={task.terms} problems={problems} />
            {notice && (
              <div className={`alert ${notice.kind === 'error' ? 'alert-error' : 'alert-info'}`} role={notice.kind === 'error' ? 'alert' : 'status'}>
                {notice.text}
              </div>
            )}
            <ApiErrorMessage error={error} />
            <div className="actions">
              <button type="button" className="btn btn-primary" onClick={approve} disabled={leaseOver || actions.approve.isPending}>
                {t('workspace.approve')} <kbd>Ctrl+Enter</kbd>
              </button>
              <button type="button" className="btn" onClick={save} disabled={leaseOver || actions.edit.isPending}>
                {t('workspace.saveEdit')} <kbd>Ctrl+S</kbd>
              </button>
              <button type="button" className="btn" onClick={reset} disabled={!dirty && plain === null}>
                {t('workspace.reset')}
              </button>
            </div>
            <p className="hint">{t('workspace.shortcuts')}</p>
          </section>
          <MemorySuggestions task={task} onInsert={insert} />
        </div>
      ) : (
        <section className="card" aria-labelledby={editorLabel}>
          <h3 id={editorLabel}>{t('workspace.answeredAt', { date: task.answered_at ? formatDateTime(task.answered_at) : '?', status: t(`workspace.status.${task.status}`) })}</h3>
          {task.translation !== null && (
            <>
              <p className="hint">{t('workspace.yourEdit')}</p>
              <HighlightedText text={task.translation} terms={task.terms} side="translation" lang={task.target} doNotTranslate={doNotTranslate} />
            </>
          )}
        </section>
      )}
    </article>
  );
}
