import { Fragment, useEffect, useId, useState, type KeyboardEvent } from 'react';
import { useT } from '../../../i18n/i18n';
import type { ReviewTask } from '../hooks/use-review';
import { withSegment, withTokenMoved, type TokenEditorState } from '../utils/token-editor-state';

interface TokenEditorProps {
  tokens: ReviewTask['tokens'];
  state: TokenEditorState;
  onChange: (state: TokenEditorState) => void;
  /** A try to remove a chip: the editor refuses and says why. */
  onRefuse: (message: string) => void;
  lang: string;
  labelledBy: string;
}

/**
 * The translation as text fields with the protected tokens between them as chips. A chip is a
 * button, not text: typing cannot touch it, Delete and Backspace on it (or against it from the
 * text beside it) are refused with the reason, and Alt+Left/Right moves it past its neighbour,
 * as word order in the target language may need. So every token stays, exactly once.
 */
export function TokenEditor({ tokens, state, onChange, onRefuse, lang, labelledBy }: TokenEditorProps) {
  const t = useT();
  const hint = useId();
  const [focusToken, setFocusToken] = useState<number | null>(null);
  const chipName = (position: number) => {
    const token = tokens[state.order[position]];
    return t(`workspace.chip.${token.kind}`, { text: token.text });
  };
  const refuse = (position: number) => onRefuse(t('workspace.chipRefused', { chip: chipName(position) }));

  useEffect(() => {
    if (focusToken === null) return;
    document.querySelector<HTMLElement>(`[data-token="${focusToken}"]`)?.focus();
    setFocusToken(null);
  }, [focusToken]);

  const onChipKey = (position: number) => (event: KeyboardEvent<HTMLButtonElement>) => {
    if (event.key === 'Delete' || event.key === 'Backspace') {
      event.preventDefault();
      refuse(position);
    } else if (event.altKey && (event.key === 'ArrowLeft' || event.key === 'ArrowRight')) {
      event.preventDefault();
      onChange(withTokenMoved(state, position, event.key === 'ArrowLeft' ? -1 : 1));
      setFocusToken(state.order[position]);
    }
  };

  const onSegmentKey = (index: number) => (event: KeyboardEvent<HTMLTextAreaElement>) => {
    const { selectionStart, selectionEnd, value } = event.currentTarget;
    if (selectionStart !== selectionEnd) return;
    if (event.key === 'Backspace' && selectionStart === 0 && index > 0) {
      event.preventDefault();
      refuse(index - 1);
    } else if (event.key === 'Delete' && selectionEnd === value.length && index < state.order.length) {
      event.preventDefault();
      refuse(index);
    }
  };

  return (
    <div className="token-editor" role="group" aria-labelledby={labelledBy} aria-describedby={hint} lang={lang}>
      <p className="hint" id={hint}>
        {t('workspace.editorHint')}
      </p>
      <div className="token-flow">
        {state.segments.map((segment, index) => (
          <Fragment key={index}>
            <textarea
              className="segment"
              rows={1}
              spellCheck
              aria-label={t('workspace.segment', { position: index + 1, count: state.segments.length })}
              value={segment}
              onChange={(event) => onChange(withSegment(state, index, event.target.value))}
              onKeyDown={onSegmentKey(index)}
            />
            {index < state.order.length && (
              <button
                type="button"
                key={`token-${state.order[index]}`}
                data-token={state.order[index]}
                className={`chip chip-${tokens[state.order[index]].kind}`}
                aria-label={t('workspace.chipHint', { chip: chipName(index), position: index + 1, count: state.order.length })}
                onKeyDown={onChipKey(index)}
              >
                {tokens[state.order[index]].text}
              </button>
            )}
          </Fragment>
        ))}
      </div>
    </div>
  );
}
