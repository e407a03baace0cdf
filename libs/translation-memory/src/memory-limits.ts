/** Memories per account and mode, the `default` one included. */
export const MAX_MEMORIES_PER_ACCOUNT = 20;
export const MAX_ENTRIES_PER_MEMORY = 100_000;
/** An import file's bytes; the route takes a body this large and no larger. */
export const MAX_IMPORT_BYTES = 20 * 1024 * 1024;

/** Our own bounds, so that a memory stays a store of segments rather than of documents. */
export const MAX_MEMORY_NAME_LENGTH = 100;
/** Characters of a segment's masked form, source or target. */
export const MAX_SEGMENT_LENGTH = 5_000;

/** Entries per page of a listing or search, and suggestions per answer. */
export const MAX_ENTRY_PAGE = 100;
export const DEFAULT_ENTRY_PAGE = 20;
export const MAX_SUGGESTIONS = 50;
export const DEFAULT_SUGGESTIONS = 10;
/** Fuzzy suggestions below this trigram similarity are left out unless the caller asks for less. */
export const DEFAULT_MIN_SIMILARITY = 0.4;
