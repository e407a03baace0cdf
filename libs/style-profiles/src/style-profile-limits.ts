/** Profiles per account and mode. */
export const MAX_STYLE_PROFILES_PER_ACCOUNT = 20;
/** Do-not-translate terms per profile: brand and product names, not a dictionary. */
export const MAX_DO_NOT_TRANSLATE_TERMS = 1_000;
export const MAX_DO_NOT_TRANSLATE_TERM_LENGTH = 200;
export const MAX_STYLE_PROFILE_NAME_LENGTH = 100;
export const MAX_STYLE_NOTES_LENGTH = 5_000;
