import { DomainDatabase } from './data-source-options';
import { translationMigrations } from './migrations/translation';
import { imageMigrations } from './migrations/image';

/** Accounts, keys, usage, glossaries, batches and webhooks of the translation service. */
export const translationDomain: DomainDatabase = { schema: 'translation', migrations: translationMigrations };

/** Subscriptions, tokens and conversion usage of the image service. */
export const imageDomain: DomainDatabase = { schema: 'image', migrations: imageMigrations };
