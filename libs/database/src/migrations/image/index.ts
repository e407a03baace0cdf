import { Tokens1732500000000 } from './1732500000000-tokens';

/** Ordered list; a new migration is appended here and never edited once released. */
export const imageMigrations: Function[] = [Tokens1732500000000];
