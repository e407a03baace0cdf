/** Where a catalog translation comes from: a package's message catalog and its licence. */
export interface CatalogSource {
  package: string;
  domain: string;
  licence: string;
}

/** A catalog's translation of one key. */
export interface CatalogMatch {
  /** The translation, masked, its ids in the canonical numbering of the key it answers. */
  target: string;
  entryId: string;
  provenance: CatalogSource[];
}

/**
 * The catalog half of `TranslationMemory.lookup`: translations of short interface strings taken
 * from public message catalogs (translation.catalog_entries). Provided by the catalog under
 * `CATALOG_LOOKUP`; without a provider, lookups consult the account's memories alone.
 *
 * `keys` are `memoryKey()`s of masked segments (ids numbered 1, 2, … in order of appearance);
 * the catalog applies its own further normalisation (accelerators, trailing punctuation, case)
 * and gives back what it took away. The answer holds one item per key, in the same order,
 * undefined where the catalog has nothing; one round trip for all keys.
 */
export interface CatalogLookup {
  exact(source: string, target: string, keys: string[]): Promise<Array<CatalogMatch | undefined>>;
}

/** Nest injection token of the CatalogLookup implementation. */
export const CATALOG_LOOKUP = Symbol('CATALOG_LOOKUP');
