import type { DoNotTranslateTerm } from '@platform/translation-pipeline/text-spans';
import { useMemo } from 'react';
import { useT } from '../../../i18n/i18n';
import type { ReviewTask } from '../hooks/use-review';
import { highlight } from '../utils/highlight';

interface HighlightedTextProps {
  text: string;
  terms: ReviewTask['terms'];
  side: 'source' | 'translation';
  lang?: string;
  doNotTranslate?: readonly DoNotTranslateTerm[];
}

/** A task's text with its variables, markup and do-not-translate terms as chips and its glossary terms marked. */
export function HighlightedText({ text, terms, side, lang, doNotTranslate }: HighlightedTextProps) {
  const t = useT();
  const pieces = useMemo(() => highlight(text, terms, side, doNotTranslate), [text, terms, side, doNotTranslate]);
  return (
    <p className="task-text" lang={lang}>
      {pieces.map((piece, index) => {
        if (piece.kind === 'text') return piece.text;
        if (piece.kind === 'term') {
          const note = t('workspace.term', { term: piece.term, translation: piece.translation });
          return (
            <mark key={index} className="term" title={note}>
              {piece.text}
              <span className="visually-hidden"> ({note})</span>
            </mark>
          );
        }
        return (
          <code key={index} className={`chip chip-${piece.kind}`} title={t(`workspace.chip.${piece.kind}`, { text: piece.text })}>
            {piece.text}
          </code>
        );
      })}
    </p>
  );
}
