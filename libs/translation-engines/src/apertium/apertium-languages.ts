import type { LanguagePair } from '../translation-engine';

/**
 * Apertium names languages by ISO 639-3 (older pairs by ISO 639-1), optionally with a variant
 * (`hbs_HR`, `pt_BR`, `eng_US`). Only the 24 official EU languages count; everything else
 * (Catalan, Galician, Norwegian...) is ignored.
 */
const ISO_639_1: ReadonlyMap<string, string> = new Map(Object.entries({
  bg: 'bg', bul: 'bg',
  hr: 'hr', hrv: 'hr', hbs: 'hr',
  cs: 'cs', ces: 'cs',
  da: 'da', dan: 'da',
  nl: 'nl', nld: 'nl',
  en: 'en', eng: 'en',
  et: 'et', est: 'et', ekk: 'et',
  fi: 'fi', fin: 'fi',
  fr: 'fr', fra: 'fr',
  de: 'de', deu: 'de',
  el: 'el', ell: 'el',
  hu: 'hu', hun: 'hu',
  ga: 'ga', gle: 'ga',
  it: 'it', ita: 'it',
  lv: 'lv', lav: 'lv', lvs: 'lv',
  lt: 'lt', lit: 'lt',
  mt: 'mt', mlt: 'mt',
  pl: 'pl', pol: 'pl',
  pt: 'pt', por: 'pt',
  ro: 'ro', ron: 'ro',
  sk: 'sk', slk: 'sk',
  sl: 'sl', slv: 'sl',
  es: 'es', spa: 'es',
  sv: 'sv', swe: 'sv',
}));

/** Variants that are exactly the EU language: preferred over the unmarked code. */
const STANDARD_VARIANTS: ReadonlyMap<string, string> = new Map([['hbs_HR', 'hr']]);

/**
 * Macrolanguages whose other variants are other languages (hbs_SR is Serbian, hbs_BS Bosnian).
 * Their unmarked code still counts: the Debian pairs analyse all of Serbo-Croatian and generate
 * the Croatian standard when no variant is named.
 */
const MACROLANGUAGES: ReadonlySet<string> = new Set(['hbs']);

interface Language {
  code: string;
  /** Lower is better: 0 the standard variant, 1 the unmarked code, 2 a regional variant (pt_BR). */
  rank: number;
}

export function euLanguage(apertiumCode: string): Language | null {
  const standard = STANDARD_VARIANTS.get(apertiumCode);
  if (standard) return { code: standard, rank: 0 };
  const [base, variant, ...rest] = apertiumCode.split('_');
  const code = ISO_639_1.get(base);
  if (!code || rest.length) return null;
  if (variant === undefined) return { code, rank: 1 };
  return MACROLANGUAGES.has(base) ? null : { code, rank: 2 };
}

export interface ModePair extends LanguagePair {
  /** The mode's file name without `.mode`, e.g. `eng-spa`. */
  mode: string;
}

/**
 * Picks one mode per EU language pair among installed mode names. Names other than
 * `<source>-<target>` (`eco-fr-es`, `Cyrl-Latn`) are not translation directions between two
 * EU languages and are skipped. Where several modes give the same pair, the one closest to the
 * standard language wins (`eng-hbs_HR` over `eng-hbs`, `es-pt` over `es-pt_BR`, `spa-eng` over
 * `spa-eng_US`); ties go to the alphabetically first name so the choice is stable.
 */
export function selectModes(modeNames: string[]): ModePair[] {
  const best = new Map<string, ModePair & { rank: number }>();
  for (const mode of [...modeNames].sort()) {
    const parts = mode.split('-');
    if (parts.length !== 2) continue;
    const [source, target] = parts.map(euLanguage);
    if (!source || !target || source.code === target.code) continue;
    const key = `${source.code}-${target.code}`;
    const rank = source.rank + target.rank;
    const current = best.get(key);
    if (!current || rank < current.rank) best.set(key, { source: source.code, target: target.code, mode, rank });
  }
  return [...best.values()].map(({ source, target, mode }) => ({ source, target, mode }));
}
