import { AccountsAndKeys1732000000000 } from './1732000000000-accounts-and-keys';
import { Glossaries1732100000000 } from './1732100000000-glossaries';

/** Ordered list; a new migration is appended here and never edited once released. */
export const translationMigrations: Function[] = [AccountsAndKeys1732000000000, Glossaries1732100000000];
