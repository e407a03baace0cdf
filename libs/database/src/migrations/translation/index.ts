import { AccountsAndKeys1732000000000 } from './1732000000000-accounts-and-keys';
import { Glossaries1732100000000 } from './1732100000000-glossaries';
import { Batches1732200000000 } from './1732200000000-batches';
import { Webhooks1732300000000 } from './1732300000000-webhooks';
import { Review1732400000000 } from './1732400000000-review';
import { ModesAndAccountLimits1733000000000 } from './1733000000000-modes-and-account-limits';
import { BatchRecovery1733100000000 } from './1733100000000-batch-recovery';
import { BatchHtmlAttributes1733200000000 } from './1733200000000-batch-html-attributes';
import { ConsoleUsers1733300000000 } from './1733300000000-console-users';
import { BatchListing1733310000000 } from './1733310000000-batch-listing';
import { UsageDays1733320000000 } from './1733320000000-usage-days';
import { ConsoleReviewers1733410000000 } from './1733410000000-console-reviewers';
import { ChargeWordsFunction1733600000000 } from './1733600000000-charge-words-function';
import { ReviewScope1733700000000 } from './1733700000000-review-scope';
import { AccountNamesUnique1733710000000 } from './1733710000000-account-names-unique';
import { SignupVerification1733711000000 } from './1733711000000-signup-verification';
import { ChargeWordsDeadline1733800000000 } from './1733800000000-charge-words-deadline';
import { TranslationMemory1733900000000 } from './1733900000000-translation-memory';
import { CatalogEntries1733950000000 } from './1733950000000-catalog-entries';
import { BatchMemory1734050000000 } from './1734050000000-batch-memory';
import { OutboxTraceContext1734100000000 } from './1734100000000-outbox-trace-context';
import { StyleProfiles1734200000000 } from './1734200000000-style-profiles';
import { KeyRolling1734300000000 } from './1734300000000-key-rolling';
import { DeliveryExchange1734310000000 } from './1734310000000-delivery-exchange';
import { ConsolePasswordResets1734400000000 } from './1734400000000-console-password-resets';
import { ConsoleSecondFactor1734420000000 } from './1734420000000-console-second-factor';
import { AccountNamesFoldEveryLetter1734440000000 } from './1734440000000-account-names-fold-every-letter';

/** Ordered list; a new migration is appended here and never edited once released. */
export const translationMigrations: Function[] = [
  AccountsAndKeys1732000000000,
  Glossaries1732100000000,
  Batches1732200000000,
  Webhooks1732300000000,
  Review1732400000000,
  ModesAndAccountLimits1733000000000,
  BatchRecovery1733100000000,
  BatchHtmlAttributes1733200000000,
  ConsoleUsers1733300000000,
  BatchListing1733310000000,
  UsageDays1733320000000,
  ConsoleReviewers1733410000000,
  ChargeWordsFunction1733600000000,
  ReviewScope1733700000000,
  AccountNamesUnique1733710000000,
  SignupVerification1733711000000,
  ChargeWordsDeadline1733800000000,
  TranslationMemory1733900000000,
  CatalogEntries1733950000000,
  BatchMemory1734050000000,
  OutboxTraceContext1734100000000,
  StyleProfiles1734200000000,
  KeyRolling1734300000000,
  DeliveryExchange1734310000000,
  ConsolePasswordResets1734400000000,
  ConsoleSecondFactor1734420000000,
  AccountNamesFoldEveryLetter1734440000000,
];
