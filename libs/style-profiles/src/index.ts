/**
 * Style profiles of an account and mode: do-not-translate terms, typography, formality, a
 * default glossary and memory, and notes for reviewers. `StyleProfileService` keeps them (API and
 * console) and resolves the one a translation request uses (`apply`), with the request DTOs every
 * app that offers them validates with.
 */
export * from './style-profile.entity';
export * from './style-profile-limits';
export * from './style-profile-draft';
export * from './applied-style-profile';
export * from './formality-report';
export * from './style-profile.service';
export * from './style-profiles.module';
export * from './dtos/style-profile-input.dto';
export * from './dtos/style-profile-responses.dto';
