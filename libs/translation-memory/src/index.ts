/**
 * Translation memory of an account and mode.
 *
 * - `TranslationMemory.lookup` (pipeline): exact translations of masked segments, the account's
 *   memories first, then the catalog through the `CatalogLookup` seam; `translationsFor` asks it
 *   about a prepared request's sentences.
 * - `TranslationMemory.suggestions` (API, reviewer workspace): exact and fuzzy (pg_trgm) matches.
 * - `TranslationMemory.learn` (review): what a verdict teaches, in the verdict's transaction.
 * - `MemoryService` (API): memories and entries, TMX/XLIFF/PO import, TMX export, limits; the
 *   request DTOs and `@AcceptsMemoryFile()` with its body parser, for every app that offers them.
 * - `CatalogBuilder` (admin `catalog:build`): the catalog memory from the installed gettext
 *   catalogs; `CatalogEntriesLookup` answers the catalog half of lookups from it.
 * - `memoryKey` and friends: the one normalisation of a masked segment (browser-safe, also at
 *   `@platform/translation-memory/memory-key`).
 * - `reviewedSegments`, `withSegmentReplaced`: the pieces of a reviewed text suggestions are
 *   asked for, and where an inserted one goes (browser-safe, also at
 *   `@platform/translation-memory/reviewed-segments`).
 */
export * from './memory-key';
export * from './catalog-lookup';
export * from './memory-limits';
export { DEFAULT_MEMORY_NAME, Memory } from './memory.entity';
export { MEMORY_ORIGINS, MemoryEntry, type MemoryOrigin, type MemoryProvenance } from './memory-entry.entity';
export { MEMORY_FILE_FORMATS, type MemoryFileFormat, type SkipReason } from './formats/memory-file';
export { MemoryService, type EntryInput, type ImportSummary, type MemoryDraft } from './memory.service';
export { TranslationMemory, type LookupMatch, type LookupRequest, type MemoryOptions, type ReviewedText, type SentencesRequest, type Suggestion, type SuggestionRequest } from './translation-memory.service';
export * from './reviewed-segments';
export { TranslationMemoryModule } from './translation-memory.module';
export { CatalogBuilder, CATALOG_RULES_VERSION, type CatalogBuildOptions, type CatalogBuildResult, type LanguageSummary } from './catalog/catalog-builder';
export { CatalogEntriesLookup } from './catalog/catalog-entries.lookup';
export { CATALOG_TARGETS, DEFAULT_CATALOG_ROOTS } from './catalog/catalog-files';
export { catalogSummaryLines, SMALL_CATALOG_STRINGS } from './catalog/catalog-summary';
export * from './dtos/memory-responses.dto';
export * from './dtos/memory-requests.dto';
export { TMX_MEDIA_TYPE, tmxDownload } from './memory-download';
export { AcceptsMemoryFile, MEMORY_FILE_TYPES, MemoryFileBody, MemoryFileBodyParser, memoryFileOf } from './memory-file-body';
