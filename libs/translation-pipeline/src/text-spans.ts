/**
 * What the pipeline keeps untouched in a text (variables, template syntax, markup, do-not-translate terms), how it finds glossary
 * terms and where a JSON text's strings stand, without anything of Node or Nest: this entry point is also
 * bundled for the browser.
 */
export { findVariables, type TextRange } from './segments/variables';
export { findMarkupLookalikes } from './segments/markup-lookalikes';
export { findTemplateSyntax } from './segments/template-syntax';
export { GlossaryMatcher, type TermMatch } from './glossary/glossary-matcher';
export type { GlossaryTerms } from './glossary/glossary-terms';
export { DoNotTranslateMatcher } from './segments/do-not-translate';
export type { DoNotTranslateTerm } from './style/translation-style';
export { jsonStringValues, type JsonStringValue } from './formats/json-string-values';
