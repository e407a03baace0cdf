import type { CatalogBuildResult } from './catalog-builder';

/** Below this many strings a language's catalogs answer too little to count on (docs/performance.md, Translation memory). */
export const SMALL_CATALOG_STRINGS = 10_000;

/** A build's outcome for the terminal: one line per language, then the build's id alone on the last line. */
export function catalogSummaryLines(result: CatalogBuildResult): string[] {
  if (result.status === 'unchanged') return ['catalog unchanged: the installed catalogs are those of the active build (--force rebuilds)', result.buildId];
  const header = 'lang  catalogs  unowned  unreadable  messages  strings  translations  skipped';
  const rows = result.languages.map((language) => {
    const skipped = Object.entries(language.skipped)
      .map(([reason, count]) => `${reason} ${count}`)
      .join(', ');
    const cells = [language.language.padEnd(4), String(language.files).padStart(8), String(language.unowned).padStart(7), String(language.unreadable).padStart(10), String(language.messages).padStart(8), String(language.keys).padStart(7), String(language.entries).padStart(12)];
    return `${cells.join('  ')}  ${skipped || '-'}${language.keys < SMALL_CATALOG_STRINGS ? '  (small)' : ''}`;
  });
  const strings = result.languages.reduce((sum, language) => sum + language.keys, 0);
  const entries = result.languages.reduce((sum, language) => sum + language.entries, 0);
  return [header, ...rows, `built catalog ${result.buildId}: ${strings} strings, ${entries} translations in ${result.languages.length} languages in ${result.seconds.toFixed(0)} s`, result.buildId];
}
