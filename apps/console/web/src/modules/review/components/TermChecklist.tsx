import type { EditProblem } from '@platform/review/edit-check';
import { useT } from '../../../i18n/i18n';
import type { ReviewTask } from '../hooks/use-review';

/** The glossary terms the translation must keep, each ticked off as the current text keeps it. */
export function TermChecklist({ terms, problems }: { terms: ReviewTask['terms']; problems: EditProblem[] }) {
  const t = useT();
  if (terms.length === 0) return <p className="hint">{t('workspace.noTerms')}</p>;
  return (
    <section aria-labelledby="terms-title">
      <h3 id="terms-title">{t('workspace.terms')}</h3>
      <ul className="term-list">
        {terms.map((term) => {
          const problem = problems.find((found) => found.kind === 'term' && found.text === term.translation);
          const found = problem && 'found' in problem ? problem.found : term.count;
          return (
            <li key={term.translation} className={problem ? 'term-missing' : 'term-kept'}>
              <span aria-hidden="true">{problem ? '✗ ' : '✓ '}</span>
              {t('workspace.termStatus', { translation: term.translation, term: term.term, found, count: term.count })}
            </li>
          );
        })}
      </ul>
    </section>
  );
}
