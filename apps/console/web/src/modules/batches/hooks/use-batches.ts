import { keepPreviousData, useQuery } from '@tanstack/react-query';
import { api, unwrap } from '../../../api/client';
import type { components } from '../../../api/session-api';
import type { PageRange } from '../../../ui/use-page';
import type { Mode } from '../../mode/hooks/use-mode';

export type BatchSummary = components['schemas']['BatchSummaryDto'];
export type BatchFormat = 'json' | 'csv';

const PAGE_SIZE = 20;
/** Jobs still processing are asked about again this often, so progress moves on screen. */
const POLL_MS = 2000;

const polling = (processing: boolean) => (processing ? POLL_MS : false);

export const useBatches = (mode: Mode, cursor: string | undefined) =>
  useQuery({
    queryKey: ['batches', mode, cursor],
    queryFn: () => unwrap(api.GET('/console/api/batches', { params: { query: { mode, cursor, limit: PAGE_SIZE } } })),
    placeholderData: keepPreviousData,
    refetchInterval: (query) => polling(Boolean(query.state.data?.batches.some((job) => job.status === 'processing'))),
  });

export const useBatch = (mode: Mode, job: string, range: PageRange) =>
  useQuery({
    queryKey: ['batches', mode, job, range],
    queryFn: () => unwrap(api.GET('/console/api/batches/{job}', { params: { path: { job }, query: { mode, ...range } } })),
    placeholderData: keepPreviousData,
    refetchInterval: (query) => polling(query.state.data?.job.status === 'processing'),
  });

export const useReviewProgress = (mode: Mode, range: PageRange) =>
  useQuery({
    queryKey: ['review-progress', mode, range],
    queryFn: () => unwrap(api.GET('/console/api/review-progress', { params: { query: { mode, ...range } } })),
    placeholderData: keepPreviousData,
    refetchInterval: (query) => polling(Boolean(query.state.data?.jobs.some((job) => job.status === 'processing'))),
  });

/** Where the browser downloads a job's results as a file; a plain GET carrying the session cookie. */
export const resultsUrl = (mode: Mode, job: string, format: BatchFormat) => `/console/api/batches/${encodeURIComponent(job)}/results?mode=${mode}&format=${format}`;
