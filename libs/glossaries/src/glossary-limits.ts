/** Published limits (interface document, section 8). */
export const MAX_GLOSSARIES_PER_ACCOUNT = 20;
export const MAX_GLOSSARY_ENTRIES = 5_000;

/** Our own bounds, so that a glossary stays a list of terms rather than a store for documents. */
export const MAX_GLOSSARY_NAME_LENGTH = 100;
export const MAX_TERM_LENGTH = 200;
