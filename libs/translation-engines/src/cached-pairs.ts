import { isEuLanguage } from '@platform/contracts';
import { UnsupportedPairError, type LanguagePair } from './translation-engine';

/**
 * The language pairs a remote engine offers, fetched at most every `ttlMs` (ENGINE_PAIRS_TTL_MS),
 * so a server that gains models shows them within that time. A failed lookup is not kept, so the
 * next call asks again; the engine also forgets its pairs when a request fails, so a server that
 * comes back after a restart is asked afresh.
 */
export class CachedPairs {
  private cached?: { expiresAt: number; pairs: Promise<LanguagePair[]> };

  constructor(
    private readonly load: () => Promise<LanguagePair[]>,
    private readonly ttlMs: number,
  ) {}

  get(): Promise<LanguagePair[]> {
    if (!this.cached || this.cached.expiresAt <= Date.now()) {
      const pairs = this.load();
      const cached = { expiresAt: Date.now() + this.ttlMs, pairs };
      this.cached = cached;
      pairs.catch(() => {
        if (this.cached === cached) this.cached = undefined;
      });
    }
    return this.cached.pairs;
  }

  invalidate(): void {
    this.cached = undefined;
  }

  async assertSupported(pair: LanguagePair): Promise<void> {
    const pairs = await this.get();
    if (!pairs.some((p) => p.source === pair.source && p.target === pair.target)) throw new UnsupportedPairError(pair);
  }
}

/** Keeps the pairs between two different official EU languages, once each, sorted. */
export function euPairs(candidates: Iterable<LanguagePair>): LanguagePair[] {
  const keys = new Set<string>();
  for (const { source, target } of candidates) {
    if (source !== target && isEuLanguage(source) && isEuLanguage(target)) keys.add(`${source}>${target}`);
  }
  return [...keys].sort().map((key) => {
    const [source, target] = key.split('>');
    return { source, target };
  });
}
