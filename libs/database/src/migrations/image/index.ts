import { Tokens1732500000000 } from './1732500000000-tokens';
import { SubscriptionAccounts1733420000000 } from './1733420000000-subscription-accounts';
import { VariantFailures1733700000000 } from './1733700000000-variant-failures';
import { TokenLastUse1734300000000 } from './1734300000000-token-last-use';

/** Ordered list; a new migration is appended here and never edited once released. */
export const imageMigrations: Function[] = [Tokens1732500000000, SubscriptionAccounts1733420000000, VariantFailures1733700000000, TokenLastUse1734300000000];
