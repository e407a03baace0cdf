import { useState } from 'react';

/** One page of a list the server answers whole (e.g. keys, capped per account). */
export function usePage<T>(items: readonly T[], size = 20) {
  const [page, setPage] = useState(1);
  const pages = Math.max(1, Math.ceil(items.length / size));
  const current = Math.min(page, pages);
  return { items: items.slice((current - 1) * size, current * size), pager: { page: current, pages, hasNext: current < pages, onPage: setPage } };
}

/**
 * Pages of a cursor-paginated list: the cursors seen so far, so Previous goes back exactly as
 * Next came, even while new items arrive at the top.
 */
export function useCursorPages() {
  const [cursors, setCursors] = useState<(string | undefined)[]>([undefined]);
  const page = cursors.length;
  return {
    cursor: cursors[page - 1],
    page,
    /** Back to the first page, when what is listed changes (another search). */
    restart: () => setCursors([undefined]),
    pager: (next: string | null | undefined) => ({
      page,
      hasNext: Boolean(next),
      onPage: (to: number) => setCursors((seen) => (to > seen.length && next ? [...seen, next] : seen.slice(0, Math.max(1, to)))),
    }),
  };
}

/** A range of a list the server pages by `offset` and `limit` and counts (`total`). */
export interface PageRange {
  offset: number;
  limit: number;
}

/** Numbered pages of a list the server counts, one page asked for at a time. */
export function useOffsetPages(size = 20) {
  const [page, setPage] = useState(1);
  const range: PageRange = { offset: (page - 1) * size, limit: size };
  return {
    range,
    /** Back to the first page, when what is listed changes (another search). */
    restart: () => setPage(1),
    pager: (total: number | undefined) => {
      const pages = Math.max(1, Math.ceil((total ?? 0) / size));
      return { page, pages, hasNext: page < pages, onPage: setPage };
    },
  };
}
