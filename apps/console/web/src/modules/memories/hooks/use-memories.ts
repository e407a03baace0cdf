import { keepPreviousData, useMutation, useQuery, useQueryClient } from '@tanstack/react-query';
import { api, unwrap } from '../../../api/client';
import type { components } from '../../../api/session-api';
import type { Mode } from '../../mode/hooks/use-mode';
import { MEDIA_TYPES, type MemoryFileFormat } from '../utils/memory-file';

export type Memory = components['schemas']['MemoryDto'];
export type MemoryEntry = components['schemas']['MemoryEntryDto'];
export type MemoryLimits = components['schemas']['MemoryLimitsDto'];
export type ImportSummary = components['schemas']['MemoryImportResponseDto'];
export type NewMemory = components['schemas']['CreateMemoryDto'];
/** One of the 24 official EU languages, as the API names them. */
export type Language = NonNullable<NewMemory['source']>;

export interface MemoryImport {
  id: string;
  file: File;
  format: MemoryFileFormat;
  source?: Language;
  target?: Language;
}

const MEMORIES = ['memories'] as const;

export const useMemories = (mode: Mode) =>
  useQuery({ queryKey: [...MEMORIES, mode], queryFn: () => unwrap(api.GET('/console/api/memories', { params: { query: { mode } } })), placeholderData: keepPreviousData });

export const useMemoryEntries = (mode: Mode, id: string, q: string, cursor: string | undefined) =>
  useQuery({
    queryKey: [...MEMORIES, mode, id, q, cursor],
    queryFn: () => unwrap(api.GET('/console/api/memories/{id}', { params: { path: { id }, query: { mode, q: q || undefined, cursor } } })),
    placeholderData: keepPreviousData,
  });

/** Where the browser downloads a memory as TMX; a plain GET carrying the session cookie. */
export const memoryExportUrl = (mode: Mode, id: string) => `/console/api/memories/${encodeURIComponent(id)}/export?mode=${mode}`;

/** Creation, import, entry edits and deletions; each refreshes what shows memories. */
export function useMemoryActions(mode: Mode) {
  const client = useQueryClient();
  const refresh = () => client.invalidateQueries({ queryKey: MEMORIES });
  const query = { mode };
  return {
    create: useMutation({ mutationFn: (body: NewMemory) => unwrap(api.POST('/console/api/memories', { params: { query }, body })), onSuccess: refresh }),
    remove: useMutation({ mutationFn: (id: string) => unwrap(api.DELETE('/console/api/memories/{id}', { params: { path: { id }, query } })), onSuccess: refresh }),
    importFile: useMutation({
      // The file goes as it is, with the media type of its format, as the public API takes it.
      mutationFn: ({ id, file, format, source, target }: MemoryImport) =>
        unwrap(
          api.POST('/console/api/memories/{id}/import', {
            params: { path: { id }, query: { ...query, source, target } },
            body: file,
            bodySerializer: (body: Blob) => body,
            headers: { 'content-type': MEDIA_TYPES[format] },
          }),
        ),
      onSuccess: refresh,
    }),
    editEntry: useMutation({
      mutationFn: ({ id, entryId, source, target }: { id: string; entryId: string; source?: string; target?: string }) =>
        unwrap(api.PATCH('/console/api/memories/{id}/entries/{entryId}', { params: { path: { id, entryId }, query }, body: { source, target } })),
      onSuccess: refresh,
    }),
    removeEntry: useMutation({
      mutationFn: ({ id, entryId }: { id: string; entryId: string }) => unwrap(api.DELETE('/console/api/memories/{id}/entries/{entryId}', { params: { path: { id, entryId }, query } })),
      onSuccess: refresh,
    }),
  };
}
