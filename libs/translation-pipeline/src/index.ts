export * from './translation-request';
export * from './translation-pipeline';
export * from './translation-pipeline.module';
export * from './pricing/pricing.config';
export * from './glossary/glossary-terms';
export { LanguageDetector } from './detection/language-detector';
export { countWords } from './segments/word-count';
export * from './memory-forms';
export * from './style/translation-style';
