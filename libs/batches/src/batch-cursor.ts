import { ApiError } from '@platform/errors';
import { BATCH_JOB_ID } from './batch-id';

/** Where a page of the batch list ends: the last job's created_at (to the microsecond, as stored) and id. */
export interface BatchCursor {
  at: string;
  id: string;
}

const MICROSECOND_UTC = /^(?!0000)\d{4}-\d{2}-\d{2}T\d{2}:\d{2}:\d{2}\.\d{6}Z$/;

/** Opaque to clients: they pass `next_cursor` back as is. */
export function encodeBatchCursor(cursor: BatchCursor): string {
  return Buffer.from(JSON.stringify([cursor.at, cursor.id])).toString('base64url');
}

export function decodeBatchCursor(value: string): BatchCursor {
  const [at, id] = parse(value) ?? [];
  if (typeof at !== 'string' || !isMoment(at) || typeof id !== 'string' || !BATCH_JOB_ID.test(id)) {
    throw ApiError.invalidParameter('cursor: not a cursor of this list; pass the `next_cursor` of the previous page as it is');
  }
  return { at, id };
}

/** A moment Postgres takes as it is: JavaScript would also roll 2026-02-30 or 24:00 over to the next day. */
function isMoment(at: string): boolean {
  if (!MICROSECOND_UTC.test(at)) return false;
  const parsed = new Date(at);
  return !Number.isNaN(parsed.getTime()) && parsed.toISOString() === `${at.slice(0, 23)}Z`;
}

function parse(value: string): unknown[] | undefined {
  if (!/^[A-Za-z0-9_-]+$/.test(value)) return undefined;
  try {
    const decoded: unknown = JSON.parse(Buffer.from(value, 'base64url').toString('utf8'));
    return Array.isArray(decoded) && decoded.length === 2 ? decoded : undefined;
  } catch {
    return undefined;
  }
}
