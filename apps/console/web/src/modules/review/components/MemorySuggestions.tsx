import { useId } from 'react';
import { formatPercent } from '../../../i18n/format';
import { useT } from '../../../i18n/i18n';
import { ApiErrorMessage } from '../../../ui/ApiErrorMessage';
import { describeOrigin } from '../../memories/utils/entry-origin';
import { useTaskSuggestions, type MemorySuggestion, type ReviewTask, type SuggestedSegment } from '../hooks/use-review';

interface MemorySuggestionsProps {
  task: ReviewTask;
  /** Puts the suggestion in the segment's place of the reviewer's translation. */
  onInsert: (segment: SuggestedSegment, suggestion: MemorySuggestion) => void;
}

/**
 * Beside the editor: what the memories of the task's account hold for each segment of its
 * source, exact matches first, each with its similarity, memory, origin and an Insert button.
 */
export function MemorySuggestions({ task, onInsert }: MemorySuggestionsProps) {
  const t = useT();
  const heading = useId();
  const { data, error, isPending } = useTaskSuggestions(task.id);
  const segments = data?.segments ?? [];
  const sourceLanguage = data?.source_language ?? undefined;
  const several = segments.length > 1;
  const found = segments.some((segment) => segment.suggestions.length > 0);
  const segmentName = (segment: SuggestedSegment) =>
    task.format === 'json' ? t('suggestions.string', { value: segment.value + 1, paragraph: segment.paragraph + 1 }) : t('suggestions.paragraph', { paragraph: segment.paragraph + 1 });

  return (
    <section className="card suggestions" aria-labelledby={heading}>
      <h3 id={heading}>{t('suggestions.title')}</h3>
      <p className="hint">{t('suggestions.intro')}</p>
      <ApiErrorMessage error={error} />
      {isPending && <p className="loading">{t('app.loading')}</p>}
      {data && !data.source_language && <p>{t('suggestions.unknownSource')}</p>}
      {data && data.source_language && !found && <p>{t('suggestions.none')}</p>}
      {found &&
        segments.map((segment) => (
          <div key={`${segment.value}-${segment.paragraph}`} className="suggestion-segment">
            {several && (
              <h4>
                {segmentName(segment)}: <span lang={sourceLanguage}>{segment.text}</span>
              </h4>
            )}
            {segment.suggestions.length === 0 ? (
              <p className="hint">{t('suggestions.nothingClose')}</p>
            ) : (
              <ol className="suggestion-list">
                {segment.suggestions.map((suggestion) => (
                  <li key={suggestion.entry_id} className="suggestion">
                    <p className="suggestion-target" lang={task.target}>
                      {suggestion.target}
                    </p>
                    <p className="hint">
                      <span className={suggestion.match === 'exact' ? 'match match-exact' : 'match'}>
                        {suggestion.match === 'exact' ? t('suggestions.exact') : t('suggestions.fuzzy', { percent: formatPercent(suggestion.similarity) })}
                      </span>{' '}
                      {t('suggestions.for')} <span lang={sourceLanguage}>{suggestion.source}</span>
                    </p>
                    <p className="hint">
                      {t('suggestions.memory', { name: suggestion.memory.name })} · {describeOrigin(t, suggestion.origin, suggestion.provenance)}
                    </p>
                    <button
                      type="button"
                      className="btn"
                      aria-label={t('suggestions.insertLabel', { target: suggestion.target, segment: several ? ` (${segmentName(segment)})` : '' })}
                      onClick={() => onInsert(segment, suggestion)}
                    >
                      {t('suggestions.insert')}
                    </button>
                  </li>
                ))}
              </ol>
            )}
          </div>
        ))}
    </section>
  );
}
