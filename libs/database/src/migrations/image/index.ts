/** Ordered list; a new migration is appended here and never edited once released. */
export const imageMigrations: Function[] = [];
