import { Injectable } from '@nestjs/common';
import type { AccountMode } from '@platform/contracts';
import type { BatchStatus } from '@platform/batches';
import { DataSource } from 'typeorm';

/** How far review has come on one review-tier job: its sampled tasks by state. */
export interface JobReviewProgress {
  job: string;
  status: BatchStatus;
  target: string;
  texts: number;
  createdAt: Date;
  completedAt: Date | null;
  /** Sampled tasks no reviewer has answered yet, claimed ones included. */
  pending: number;
  /** Of those, claimed by a reviewer whose lease still holds. */
  inReview: number;
  approved: number;
  edited: number;
}

export interface ReviewProgressPage {
  jobs: JobReviewProgress[];
  /** Review-tier jobs of the account's mode in all. */
  total: number;
}

interface ProgressRow {
  id: string;
  status: BatchStatus;
  target: string;
  total: number;
  created_at: Date;
  completed_at: Date | null;
  pending: string;
  in_review: string;
  approved: string;
  edited: string;
}

/** $1 account, $2 sandbox, $3 limit, $4 offset. Tasks exist once a job is fully translated; until then all counts are zero. */
const PROGRESS = `
  SELECT j.id, j.status, j.target, j.total, j.created_at, j.completed_at,
    count(t.id) FILTER (WHERE t.status IN ('pending', 'claimed')) AS pending,
    count(t.id) FILTER (WHERE t.status = 'claimed' AND t.lease_until > now()) AS in_review,
    count(t.id) FILTER (WHERE t.status = 'approved') AS approved,
    count(t.id) FILTER (WHERE t.status = 'edited') AS edited
  FROM (
    SELECT * FROM translation.batch_jobs
    WHERE account_id = $1 AND sandbox = $2 AND tier = 'review'
    ORDER BY created_at DESC, id DESC LIMIT $3 OFFSET $4
  ) j
  LEFT JOIN translation.review_tasks t ON t.job_id = j.id
  GROUP BY j.id, j.status, j.target, j.total, j.created_at, j.completed_at
  ORDER BY j.created_at DESC, j.id DESC`;

/** Review progress of an account's review-tier jobs, for the account to follow (never the texts' reviewers). */
@Injectable()
export class ReviewProgress {
  constructor(private readonly dataSource: DataSource) {}

  /** Newest jobs first. */
  async list({ accountId, sandbox }: AccountMode, { offset, limit }: { offset: number; limit: number }): Promise<ReviewProgressPage> {
    const [rows, [{ count }]] = await Promise.all([
      this.dataSource.query<ProgressRow[]>(PROGRESS, [accountId, sandbox, limit, offset]),
      this.dataSource.query<{ count: string }[]>(`SELECT count(*) FROM translation.batch_jobs WHERE account_id = $1 AND sandbox = $2 AND tier = 'review'`, [accountId, sandbox]),
    ]);
    return {
      total: Number(count),
      jobs: rows.map((row) => ({
        job: row.id,
        status: row.status,
        target: row.target,
        texts: row.total,
        createdAt: row.created_at,
        completedAt: row.completed_at,
        pending: Number(row.pending),
        inReview: Number(row.in_review),
        approved: Number(row.approved),
        edited: Number(row.edited),
      })),
    };
  }
}
