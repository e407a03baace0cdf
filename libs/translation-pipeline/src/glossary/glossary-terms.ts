/** A glossary resolved for one source/target pair, as the glossaries lib hands it over. */
export interface GlossaryTerms {
  source: string;
  target: string;
  entries: { term: string; translation: string }[];
}
