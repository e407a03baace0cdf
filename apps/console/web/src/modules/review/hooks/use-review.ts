import { useMutation, useQuery, useQueryClient } from '@tanstack/react-query';
import { api, unwrap } from '../../../api/client';
import type { components } from '../../../api/session-api';

export type ReviewTask = components['schemas']['ReviewTaskViewDto'];
export type ReviewTaskSummary = components['schemas']['ReviewTaskSummaryDto'];
export type SuggestedSegment = components['schemas']['SuggestedSegmentDto'];
export type MemorySuggestion = components['schemas']['SuggestionDto'];

const REVIEW = ['review'] as const;
const CURRENT = (language: string) => [...REVIEW, 'current', language] as const;
const TASK = (id: string) => [...REVIEW, 'task', id] as const;
const RECENT = [...REVIEW, 'recent'] as const;

export const useWorkspace = () => useQuery({ queryKey: [...REVIEW, 'workspace'], queryFn: () => unwrap(api.GET('/console/api/review')) });

/**
 * The reviewer's task in a language: the one they hold, or a newly claimed one. Asking again
 * answers the same held task, but each fetch may claim, so it is fetched only when asked for.
 */
export function useCurrentTask(language: string | undefined) {
  return useQuery({
    queryKey: CURRENT(language ?? ''),
    queryFn: () => unwrap(api.GET('/console/api/review/tasks/next', { params: { query: { lang: language! } } })).then((answer) => answer.task),
    enabled: Boolean(language),
    staleTime: Infinity,
    refetchOnWindowFocus: false,
  });
}

export const useTask = (id: string | undefined) =>
  useQuery({ queryKey: TASK(id ?? ''), queryFn: () => unwrap(api.GET('/console/api/review/tasks/{id}', { params: { path: { id: id! } } })).then((answer) => answer.task), enabled: Boolean(id) });

/** What the memories of the task's account hold for its segments; the same while the task is on screen. */
export const useTaskSuggestions = (id: string) =>
  useQuery({
    queryKey: [...REVIEW, 'suggestions', id],
    queryFn: () => unwrap(api.GET('/console/api/review/tasks/{id}/suggestions', { params: { path: { id } } })),
    staleTime: Infinity,
    refetchOnWindowFocus: false,
  });

export const useRecentTasks = () => useQuery({ queryKey: RECENT, queryFn: () => unwrap(api.GET('/console/api/review/tasks')).then((answer) => answer.tasks) });

export function useTaskActions(language: string) {
  const client = useQueryClient();
  const path = (id: string) => ({ params: { path: { id } } });
  return {
    // After an answer the caller moves on (`moveOn`), once it has said so: the answered task's view goes away with it.
    approve: useMutation({ mutationFn: (id: string) => unwrap(api.POST('/console/api/review/tasks/{id}/approve', path(id))) }),
    edit: useMutation({
      mutationFn: ({ id, translation }: { id: string; translation: string }) => unwrap(api.POST('/console/api/review/tasks/{id}/edit', { ...path(id), body: { translation } })),
    }),
    renew: useMutation({
      mutationFn: (id: string) => unwrap(api.POST('/console/api/review/tasks/{id}/lease', path(id))),
      onSuccess: ({ task, lease_until }) => {
        const renewed = <T extends ReviewTask | null | undefined>(held: T): T => (held && held.id === task ? { ...held, lease_until } : held);
        client.setQueryData<ReviewTask | null>(CURRENT(language), renewed);
        client.setQueryData<ReviewTask>(TASK(task), renewed);
      },
    }),
    /** After a lost lease: the language's next task, whichever it is. */
    takeNext: () => client.invalidateQueries({ queryKey: CURRENT(language) }),
    /** After an answer: the language's task is claimed anew and the history grows; resolves to the new task, or null when none is open. */
    moveOn: async () => {
      await client.invalidateQueries({ queryKey: REVIEW });
      return client.getQueryData<ReviewTask | null>(CURRENT(language)) ?? null;
    },
  };
}
