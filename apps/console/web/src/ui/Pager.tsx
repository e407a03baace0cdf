import { useT } from '../i18n/i18n';

interface PagerProps {
  /** 1-based; `pages` unknown for cursor lists, which only know whether there is a next page. */
  page: number;
  pages?: number;
  hasNext: boolean;
  onPage: (page: number) => void;
}

/** Previous and next for any list, numbered or cursor-based. */
export function Pager({ page, pages, hasNext, onPage }: PagerProps) {
  const t = useT();
  if (page === 1 && !hasNext) return null;
  return (
    <nav className="pager" aria-label={t('pager.label')}>
      <button type="button" className="btn" disabled={page <= 1} onClick={() => onPage(page - 1)}>
        {t('pager.previous')}
      </button>
      <span aria-live="polite">{pages ? t('pager.position', { page, pages }) : page}</span>
      <button type="button" className="btn" disabled={!hasNext} onClick={() => onPage(page + 1)}>
        {t('pager.next')}
      </button>
    </nav>
  );
}
