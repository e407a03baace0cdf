import { Injectable } from '@nestjs/common';
import { EU_LANGUAGES, isEuLanguage, type EuLanguage } from '@platform/contracts';

type Eld = (typeof import('eld/large'))['eld'];

/** Enough text for a confident guess; more only costs time. */
const MAX_DETECTION_CHARS = 10_000;
/** Letters only Maltese writes among the EU languages. */
const MALTESE_LETTERS = /[ċġħ]/iu;
const WORD = /\p{L}{2}/u;
/**
 * Fewer words than this never decide a text's language on their own: ELD is sure that "Hello
 * world" is German. Measured on short interface strings ("Open the file", "Add to cart") in
 * English and Spanish, three words were always enough.
 */
const MIN_WORDS_TO_IDENTIFY = 3;
const WORDS = /\p{L}+/gu;

/**
 * Source language detection with ELD (Nito-ELD, `eld` on npm): maintained, pure JavaScript
 * without native code or downloads, its n-gram data ships in the package, and among the
 * offline detectors compared (eld, tinyld, franc, cld3-asm) it was the most accurate on short
 * EU-language sentences: tinyld confuses hr/sl/sr and bg/ru, franc misses most one-liners,
 * cld3-asm (unmaintained) mixes up et/fi, hr/sk, nl/af. The large database is used because the
 * smaller ones confuse es/ca and hr/sl on short texts; it loads lazily (about a second and
 * 150 MB) on the first request without `source`.
 *
 * Detection only chooses among the languages that can be translated into the request's target,
 * and takes ELD's best guess among them even where ELD calls it unreliable: a short text such as
 * "Hello world" would otherwise score highest as Norwegian, which no EU pair can use. Clients who
 * need certainty on one- or two-word texts give `source`.
 *
 * ELD has no model for Irish or Maltese. Maltese is recognised by its own letters (ċ, ġ, ħ);
 * Irish text needs an explicit `source`.
 */
@Injectable()
export class LanguageDetector {
  private detector?: Promise<Eld>;

  /** The most likely of `candidates` (ISO 639-1), or undefined when the text gives no clue. */
  async detect(text: string, candidates: readonly string[]): Promise<EuLanguage | undefined> {
    const sample = text.slice(0, MAX_DETECTION_CHARS);
    // Digits, symbols and stray letters say nothing about a language.
    if (!WORD.test(sample)) return undefined;
    if (candidates.includes('mt') && MALTESE_LETTERS.test(sample)) return 'mt';
    const detector = await this.load();
    // The subset is a filter on scores; set and used synchronously, so concurrent requests cannot mix.
    detector.setLanguageSubset([...candidates]);
    const { language } = detector.detect(sample);
    return isEuLanguage(language) && candidates.includes(language) ? language : undefined;
  }

  /**
   * The EU language a text is written in, among all 24, when the text is long enough and ELD
   * sure enough to tell; otherwise undefined (the caller then decides from the whole request).
   */
  async identify(text: string): Promise<EuLanguage | undefined> {
    const sample = text.slice(0, MAX_DETECTION_CHARS);
    if ((sample.match(WORDS)?.length ?? 0) < MIN_WORDS_TO_IDENTIFY) return undefined;
    if (MALTESE_LETTERS.test(sample)) return 'mt';
    const detector = await this.load();
    detector.setLanguageSubset([...EU_LANGUAGES]);
    const result = detector.detect(sample);
    return result.isReliable() && isEuLanguage(result.language) ? result.language : undefined;
  }

  private load(): Promise<Eld> {
    this.detector ??= import('eld/large').then(({ eld }) => {
      const detector = eld.newInstance();
      // Drops URLs, e-mail addresses and the like, which say nothing about the language.
      detector.enableTextCleanup(true);
      return detector;
    });
    return this.detector;
  }
}
