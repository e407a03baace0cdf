import { ApiError } from '@platform/errors';
import { parseCsv, type Glossary, type GlossaryDraft } from '@platform/glossaries';
import type { DeepLGlossaryDto } from './dtos/deepl-glossary.dto';

/** One `source<TAB>target` pair per line, as DeepL writes and reads glossary entries. */
function tsvRows(entries: string): { line: number; fields: string[] }[] {
  return entries.split(/\r\n|\r|\n/).map((text, index) => ({ line: index + 1, fields: text.split('\t') }));
}

/**
 * A DeepL glossary upload as our glossary: one source, one target. DeepL's CSV may carry the two
 * languages as third and fourth columns; ours are those of the request.
 */
export function draftFromEntries(name: string, source: string, target: string, entries: string, format: 'tsv' | 'csv'): GlossaryDraft {
  const rows = (format === 'csv' ? parseCsv(entries) : tsvRows(entries)).filter(({ fields }) => fields.some((field) => field.trim() !== ''));
  return {
    name,
    source,
    entries: rows.map(({ line, fields }) => {
      if (fields.length < 2 || (format === 'tsv' && fields.length > 2)) {
        throw ApiError.invalidParameter(`Invalid glossary entries: line ${line} must hold a source term and its translation separated by ${format === 'tsv' ? 'a tab' : 'a comma'}`);
      }
      return { at: `line ${line}`, term: fields[0], translations: { [target]: fields[1] } };
    }),
  };
}

/** DeepL's view of a glossary: the first of its targets (a glossary made here has exactly one). */
export function toDeepLGlossary(glossary: Pick<Glossary, 'id' | 'name' | 'source' | 'targets' | 'createdAt' | 'entryCount'>): DeepLGlossaryDto {
  return {
    glossary_id: glossary.id,
    name: glossary.name,
    ready: true,
    source_lang: glossary.source,
    target_lang: glossary.targets[0] ?? '',
    creation_time: glossary.createdAt.toISOString(),
    entry_count: glossary.entryCount,
  };
}

/** The entries into the glossary's first target, as TSV. */
export function entriesAsTsv({ targets, entries }: Pick<Glossary, 'targets' | 'entries'>): string {
  const target = targets[0];
  return entries.flatMap(({ term, translations }) => (translations[target] ? [`${term}\t${translations[target]}`] : [])).join('\n');
}
