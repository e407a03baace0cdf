import { useState, type FormEvent } from 'react';
import { formatLanguage } from '../../../i18n/format';
import { useT } from '../../../i18n/i18n';
import { ApiErrorMessage } from '../../../ui/ApiErrorMessage';
import { DataTable } from '../../../ui/DataTable';
import { useReviewPool, type PoolLanguages, type ReviewCoverage } from '../hooks/use-review-pool';
import { reviewOutcome } from '../utils/review-outcome';

/**
 * Who reviews the account's live review-tier jobs: its own reviewers always, the platform's in
 * the languages the owner ticks. A language nobody can review is refused at submission, and the
 * table says so before a customer finds out from a 422.
 */
export function ReviewPoolSection() {
  const t = useT();
  const { pool, choose } = useReviewPool();
  const coverage = pool.data?.coverage ?? [];
  // The owner's ticks until saved; the server's choice otherwise.
  const [draft, setDraft] = useState<Set<string>>();
  const chosen = draft ?? new Set(pool.data?.pool_languages ?? []);
  const toggle = (language: string, on: boolean) => {
    const next = new Set(chosen);
    if (on) next.add(language);
    else next.delete(language);
    setDraft(next);
    choose.reset();
  };
  const submit = (event: FormEvent) => {
    event.preventDefault();
    choose.mutate([...chosen] as PoolLanguages, { onSuccess: () => setDraft(undefined) });
  };
  return (
    <section className="card" aria-labelledby="review-pool">
      <h2 id="review-pool">{t('users.pool.title')}</h2>
      <p>{t('users.pool.intro')}</p>
      <ApiErrorMessage error={pool.error ?? choose.error} />
      <form onSubmit={submit}>
        <DataTable
          label={t('users.pool.table')}
          rows={coverage}
          rowKey={(row) => row.language}
          columns={[
            { header: t('users.pool.language'), rowHeader: true, cell: (row: ReviewCoverage) => `${formatLanguage(row.language)} (${row.language})` },
            { header: t('users.pool.own'), cell: (row) => row.own_reviewers },
            {
              header: t('users.pool.platform'),
              cell: (row) => (
                <label className="choice">
                  <input type="checkbox" checked={chosen.has(row.language)} onChange={(event) => toggle(row.language, event.target.checked)} aria-label={t('users.pool.allow', { language: formatLanguage(row.language) })} />
                  {row.pool_available ? t('users.pool.available') : t('users.pool.unavailable')}
                </label>
              ),
            },
            { header: t('users.pool.outcome'), cell: (row) => t(reviewOutcome(row.own_reviewers, row.pool_available, chosen.has(row.language))) },
          ]}
        />
        <p className="hint">{t('users.pool.appliesLater')}</p>
        <button type="submit" className="btn btn-primary" disabled={choose.isPending || draft === undefined}>
          {t('action.save')}
        </button>
        {choose.isSuccess && (
          <div className="alert alert-success" role="status">
            {t('users.pool.saved')}
          </div>
        )}
      </form>
    </section>
  );
}
