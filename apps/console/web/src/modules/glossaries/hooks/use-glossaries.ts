import { keepPreviousData, useMutation, useQuery, useQueryClient } from '@tanstack/react-query';
import { api, unwrap } from '../../../api/client';
import type { components } from '../../../api/session-api';
import type { PageRange } from '../../../ui/use-page';
import type { Mode } from '../../mode/hooks/use-mode';

export type Glossary = components['schemas']['GlossarySummaryDto'];
export type GlossaryEntry = components['schemas']['IndexedGlossaryEntryDto'];
export type GlossaryUpload = components['schemas']['GlossaryCsvUploadDto'];

const GLOSSARIES = ['glossaries'] as const;

export const useGlossaries = (mode: Mode, range: PageRange) =>
  useQuery({
    queryKey: [...GLOSSARIES, mode, range],
    queryFn: () => unwrap(api.GET('/console/api/glossaries', { params: { query: { mode, ...range } } })),
    placeholderData: keepPreviousData,
  });

export const useGlossaryEntries = (mode: Mode, id: string, q: string, range: PageRange) =>
  useQuery({
    queryKey: [...GLOSSARIES, mode, id, q, range],
    queryFn: () => unwrap(api.GET('/console/api/glossaries/{id}', { params: { path: { id }, query: { mode, q: q || undefined, ...range } } })),
    placeholderData: keepPreviousData,
  });

/** Where the browser downloads a glossary as a file; a plain GET carrying the session cookie. */
export const glossaryCsvUrl = (mode: Mode, id: string) => `/console/api/glossaries/${encodeURIComponent(id)}/csv?mode=${mode}`;

/** Upload, entry edits and deletion; each refreshes what shows glossaries. */
export function useGlossaryActions(mode: Mode) {
  const client = useQueryClient();
  const refresh = () => client.invalidateQueries({ queryKey: GLOSSARIES });
  const query = { mode };
  return {
    upload: useMutation({ mutationFn: (body: GlossaryUpload) => unwrap(api.POST('/console/api/glossaries', { params: { query }, body })), onSuccess: refresh }),
    editEntry: useMutation({
      mutationFn: ({ id, entry }: { id: string; entry: GlossaryEntry }) =>
        unwrap(
          api.PUT('/console/api/glossaries/{id}/entries/{index}', {
            params: { path: { id, index: entry.index }, query },
            body: { term: entry.term, translations: entry.translations },
          }),
        ),
      onSuccess: refresh,
    }),
    remove: useMutation({ mutationFn: (id: string) => unwrap(api.DELETE('/console/api/glossaries/{id}', { params: { path: { id }, query } })), onSuccess: refresh }),
  };
}
