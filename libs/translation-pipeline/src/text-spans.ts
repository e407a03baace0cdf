/**
 * What the pipeline keeps untouched in a text (variables, markup) and how it finds glossary
 * terms, without anything of Node or Nest: this entry point is also bundled for the browser.
 */
export { findVariables, type TextRange } from './segments/variables';
export { findMarkupLookalikes } from './segments/markup-lookalikes';
export { GlossaryMatcher, type TermMatch } from './glossary/glossary-matcher';
export type { GlossaryTerms } from './glossary/glossary-terms';
