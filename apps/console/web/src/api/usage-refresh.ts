/**
 * Usage moves while a page is open (keys translate, tokens convert meanwhile): its queries are
 * asked again this often, and whenever the tab comes back into view (React Query's default).
 */
export const USAGE_REFRESH_MS = 15_000;
