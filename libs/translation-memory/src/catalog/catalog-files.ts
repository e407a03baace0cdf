import { EU_LANGUAGES } from '@platform/contracts';
import { createHash } from 'node:crypto';
import { readdir, stat } from 'node:fs/promises';
import path from 'node:path';

/**
 * Where Debian puts compiled message catalogs, `<root>/<locale>/LC_MESSAGES/<domain>.mo`:
 * every gettext program's, and LibreOffice's own (its l10n packages ship .mo files there, not
 * under /usr/share/locale).
 */
export const DEFAULT_CATALOG_ROOTS = ['/usr/share/locale', '/usr/lib/libreoffice/program/resource'];

/** The languages catalogs are read for: the EU's, less English, the source of every catalog. */
export const CATALOG_TARGETS: readonly string[] = EU_LANGUAGES.filter((code) => code !== 'en');

/** Member states, for locale directories like `pt_PT` or `de_AT`. */
const EU_COUNTRIES = new Set(['AT', 'BE', 'BG', 'CY', 'CZ', 'DE', 'DK', 'EE', 'ES', 'FI', 'FR', 'GR', 'HR', 'HU', 'IE', 'IT', 'LT', 'LU', 'LV', 'MT', 'NL', 'PL', 'PT', 'RO', 'SE', 'SI', 'SK']);

export interface CatalogFile {
  path: string;
  /** The API's language code. */
  language: string;
  /** The gettext domain: the file's name without `.mo`. */
  domain: string;
  size: number;
  mtimeMs: number;
}

/**
 * The API language a locale directory holds, if it is an EU language as spoken in the EU: the
 * plain `pt`, or a member state's variant (`pt_PT`, `de_AT`, `fr-BE`); not `pt_BR`, `de_CH`,
 * `fr_CA`, nor script or dialect variants (`sr@latin`, `ca@valencia`), nor Norwegian (`nb`).
 */
export function languageOfLocale(locale: string): { language: string; plain: boolean } | undefined {
  const match = /^([a-z]{2})(?:[_-]([A-Z]{2}))?$/.exec(locale);
  if (!match || !CATALOG_TARGETS.includes(match[1])) return undefined;
  if (match[2] && !EU_COUNTRIES.has(match[2])) return undefined;
  return { language: match[1], plain: !match[2] };
}

async function entries(dir: string): Promise<string[]> {
  try {
    return await readdir(dir);
  } catch (error) {
    if ((error as NodeJS.ErrnoException).code === 'ENOENT' || (error as NodeJS.ErrnoException).code === 'ENOTDIR') return [];
    throw error;
  }
}

/**
 * The catalogs under the roots for the languages asked. Where a root has a domain in the plain
 * language directory and in a regional one (`pt` and `pt_PT`), only the plain one is read, so a
 * translation is not counted twice as agreeing with itself.
 */
export async function findCatalogFiles(roots: readonly string[], languages: readonly string[] = CATALOG_TARGETS): Promise<CatalogFile[]> {
  const found: CatalogFile[] = [];
  for (const root of roots) {
    const chosen = new Map<string, { file: string; plain: boolean; language: string; domain: string }>();
    for (const locale of (await entries(root)).sort()) {
      const language = languageOfLocale(locale);
      if (!language || !languages.includes(language.language)) continue;
      const dir = path.join(root, locale, 'LC_MESSAGES');
      for (const name of (await entries(dir)).sort()) {
        if (!name.endsWith('.mo')) continue;
        const domain = name.slice(0, -3);
        const slot = `${language.language}/${domain}`;
        const known = chosen.get(slot);
        if (known && (known.plain || !language.plain)) continue;
        chosen.set(slot, { file: path.join(dir, name), plain: language.plain, language: language.language, domain });
      }
    }
    for (const { file, language, domain } of chosen.values()) {
      const info = await stat(file);
      if (info.isFile()) found.push({ path: file, language, domain, size: info.size, mtimeMs: info.mtimeMs });
    }
  }
  return found.sort((a, b) => (a.path < b.path ? -1 : a.path > b.path ? 1 : 0));
}

/**
 * What a build was made from: each file's path, size and modification time (a package upgrade
 * changes them), and the version of the reading rules, so that new rules rebuild too.
 */
export function fingerprintOf(files: readonly CatalogFile[], rulesVersion: number): string {
  const hash = createHash('sha256').update(`rules ${rulesVersion}\n`);
  for (const file of files) hash.update(`${file.path}\t${file.size}\t${Math.trunc(file.mtimeMs)}\n`);
  return hash.digest('hex');
}
