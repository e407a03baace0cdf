import { Inject, Injectable } from '@nestjs/common';
import { BatchJob, BatchProgress, BatchText } from '@platform/batches';
import { TranslationErrorCode } from '@platform/contracts';
import { ApiError } from '@platform/errors';
import { reviewedSegments, TranslationMemory, type ReviewedSegment, type Suggestion } from '@platform/translation-memory';
import { DataSource, EntityManager, In } from 'typeorm';
import { checkEdit, describeEditProblems, editRules, type EditRules } from './review-edit-check';
import { REVIEW_OPTIONS, type ReviewOptions } from './review-options';
import { sampleIndexes } from './review-sample';
import { ReviewTask } from './review-task.entity';
import type { Reviewer } from './reviewer.entity';

const UUID = /^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$/i;
const SIMULATED_JOBS_AT_ONCE = 20;

export type ReviewVerdict = { verdict: 'approve' } | { verdict: 'edit'; translation: string };

/** A reviewer's task as they see it, with what an edit of it must keep. */
export interface ClaimedTask {
  task: ReviewTask;
  sourceLanguage: string | null;
  rules: EditRules;
  /** The style profile the job was accepted with: its name and its notes for reviewers. */
  style: { name: string; notes: string } | null;
}

/** Tasks a reviewer's history goes back at most. */
export const RECENT_TASKS_LIMIT = 50;
/** Segments of one task that get suggestions: a long text's later paragraphs go without. */
export const MAX_SUGGESTED_SEGMENTS = 20;
export const SUGGESTIONS_PER_SEGMENT = 5;

/** The memory's suggestions for a task, segment by segment. */
export interface TaskSuggestions {
  /** The source language suggestions were sought in (given or detected); null when unknown, and then there are none. */
  sourceLanguage: string | null;
  segments: Array<{ segment: ReviewedSegment; suggestions: Suggestion[] }>;
}

/**
 * The jobs (alias `j`) whose tasks a reviewer may see, `account` being the placeholder of the
 * reviewer's account id: live jobs of that account, or, for a reviewer of the platform's pool
 * (no account), live jobs submitted open to the pool. Every query of tasks goes through it, so
 * a task outside it is as unknown to the reviewer as one that does not exist.
 */
const reviewable = (account: string) => `NOT j.sandbox AND (j.account_id = ${account} OR (${account} IS NULL AND j.review_pool))`;

/**
 * The review stage of review-tier jobs. A job's sampled tasks are created with its last
 * translations; answering the last of them applies the edits and completes the job through
 * `BatchProgress`, in one transaction, so the webhook carries the reviewed results.
 */
@Injectable()
export class ReviewTasks {
  constructor(
    private readonly dataSource: DataSource,
    private readonly progress: BatchProgress,
    @Inject(REVIEW_OPTIONS) private readonly options: ReviewOptions,
    private readonly memory: TranslationMemory,
  ) {}

  /** Creates the sampled tasks of a fully translated job, in the caller's transaction. */
  async sample(manager: EntityManager, job: BatchJob): Promise<void> {
    const indexes = sampleIndexes(job.id, job.total, this.options.sampleRate);
    const texts = await manager.find(BatchText, { where: { jobId: job.id, idx: In(indexes) }, order: { idx: 'ASC' } });
    await manager
      .createQueryBuilder()
      .insert()
      .into(ReviewTask)
      .values(texts.map((text) => ({ jobId: job.id, idx: text.idx, target: job.target, sourceText: text.text, machineTranslation: text.translation ?? '', status: 'pending' as const })))
      .orIgnore()
      .execute();
  }

  /**
   * Claims the oldest open task in `language` that the reviewer may review: pending, or claimed
   * with a lease that ran out. SKIP LOCKED lets concurrent reviewers take different tasks without
   * waiting. Tasks of sandbox jobs are never handed to people.
   */
  async claim(reviewer: Reviewer, language: string): Promise<ClaimedTask | null> {
    const [claimed] = await this.dataSource.transaction(async (manager) =>
      rows<{ id: string }>(
        manager,
        `UPDATE translation.review_tasks SET status = 'claimed', reviewer_id = $1, lease_until = now() + make_interval(secs => $3)
         WHERE id = (
           SELECT t.id FROM translation.review_tasks t JOIN translation.batch_jobs j ON j.id = t.job_id
           WHERE t.target = $2 AND j.status = 'processing' AND ${reviewable('$4::uuid')}
             AND (t.status = 'pending' OR (t.status = 'claimed' AND t.lease_until < now()))
           ORDER BY t.created_at, t.idx
           LIMIT 1 FOR UPDATE OF t SKIP LOCKED)
         RETURNING id`,
        [reviewer.id, language, this.options.leaseSeconds, reviewer.accountId],
      ),
    );
    if (!claimed) return null;
    return this.view(await this.dataSource.manager.findOneByOrFail(ReviewTask, { id: claimed.id }));
  }

  /** The reviewer's claimed task in `language` whose lease still runs, if any: where they left off. */
  async held(reviewer: Reviewer, language: string): Promise<ClaimedTask | null> {
    const task = await this.ownTasks(reviewer)
      .andWhere(`t.target = :language AND t.status = 'claimed' AND t.lease_until > now()`, { language })
      .orderBy('t.lease_until')
      .getOne();
    return task && this.view(task);
  }

  /** One of the reviewer's own tasks (held or answered by them); 404 for any other. */
  async get(reviewer: Reviewer, taskId: string): Promise<ClaimedTask> {
    const task = UUID.test(taskId) ? await this.ownTasks(reviewer).andWhere('t.id = :taskId', { taskId }).getOne() : null;
    if (!task) throw notFound(taskId);
    return this.view(task);
  }

  /** The reviewer's answered tasks and those they hold, the held ones first, then the latest answer first. */
  recent(reviewer: Reviewer, limit = RECENT_TASKS_LIMIT): Promise<ReviewTask[]> {
    return this.ownTasks(reviewer)
      .andWhere(`(t.status IN ('approved', 'edited') OR (t.status = 'claimed' AND t.lease_until > now()))`)
      .orderBy('t.answered_at', 'DESC', 'NULLS FIRST')
      .addOrderBy('t.created_at', 'DESC')
      .addOrderBy('t.id')
      .limit(limit)
      .getMany();
  }

  /** A fresh lease of the configured length on a task the reviewer holds; the same 404 and 409s as answering. */
  async renew(reviewer: Reviewer, taskId: string): Promise<ReviewTask> {
    const [renewed] = await this.dataSource.transaction(async (manager) => {
      await this.reachable(manager, reviewer, taskId);
      return rows<{ id: string }>(
        manager,
        `UPDATE translation.review_tasks SET lease_until = now() + make_interval(secs => $3)
         WHERE id = $1 AND reviewer_id = $2 AND status = 'claimed' AND lease_until > now()
         RETURNING id`,
        [taskId, reviewer.id, this.options.leaseSeconds],
      );
    });
    const task = await this.dataSource.manager.findOneBy(ReviewTask, { id: taskId });
    if (!task) throw notFound(taskId);
    if (!renewed) assertHeld(task, reviewer);
    return task;
  }

  /**
   * Translation-memory suggestions for each segment of one of the reviewer's own tasks (404 for
   * any other), from the memories of the task's job: its account and mode, whoever reviews it
   * (a reviewer of the platform's pool has no account of their own) and whatever the caller
   * sends, so a reviewer never sees another account's memory.
   */
  async suggestions(reviewer: Reviewer, taskId: string): Promise<TaskSuggestions> {
    const { task, sourceLanguage } = await this.get(reviewer, taskId);
    const job = await this.dataSource.manager.findOneOrFail(BatchJob, { select: { id: true, accountId: true, sandbox: true, source: true, format: true }, where: { id: task.jobId } });
    const source = job.source ?? sourceLanguage;
    if (!source || source === task.target) return { sourceLanguage: source, segments: [] };
    const segments = reviewedSegments(job.format, task.sourceText).slice(0, MAX_SUGGESTED_SEGMENTS);
    const found = await this.memory.suggestionsFor({
      accountId: job.accountId,
      sandbox: job.sandbox,
      source,
      target: task.target,
      texts: segments.map((segment) => segment.text),
      limit: SUGGESTIONS_PER_SEGMENT,
    });
    return { sourceLanguage: source, segments: segments.map((segment, index) => ({ segment, suggestions: found[index] })) };
  }

  /** Seconds a claim holds from now. */
  get leaseSeconds(): number {
    return this.options.leaseSeconds;
  }

  /** Records a reviewer's verdict on a task whose lease they hold; completes the job with its last answer. */
  async answer(reviewer: Reviewer, taskId: string, verdict: ReviewVerdict): Promise<ReviewTask> {
    return this.dataSource.transaction(async (manager) => {
      const jobId = await this.reachable(manager, reviewer, taskId);
      // Answers to one job are taken one at a time, so exactly one of them sees the last task answered.
      await lockJob(manager, jobId);
      const task = await manager.findOneByOrFail(ReviewTask, { id: taskId });
      assertHeld(task, reviewer);
      if (verdict.verdict === 'edit') {
        const rules = editRules(await reviewed(manager, task));
        const problems = checkEdit(rules, task.machineTranslation, verdict.translation);
        if (problems.length > 0) throw new ApiError(422, TranslationErrorCode.UnsupportedLanguage, describeEditProblems(problems), { problems });
      }

      Object.assign(task, {
        status: verdict.verdict === 'edit' ? 'edited' : 'approved',
        verdictTranslation: verdict.verdict === 'edit' ? verdict.translation : null,
        answeredAt: new Date(),
        leaseUntil: null,
      });
      await manager.save(task);
      await this.learn(manager, task.jobId, [task]);
      await this.completeIfAnswered(manager, task.jobId);
      return task;
    });
  }

  /**
   * Approves the tasks of sandbox jobs once they are older than the configured delay, and
   * completes those jobs. The tasks' age is in Postgres, so a restarted worker carries on.
   * Returns how many jobs were completed.
   */
  async approveSimulated(): Promise<number> {
    const due = await this.dataSource.query<Array<{ job_id: string }>>(
      `SELECT DISTINCT t.job_id FROM translation.review_tasks t JOIN translation.batch_jobs j ON j.id = t.job_id
       WHERE j.sandbox AND j.status = 'processing' AND t.status IN ('pending', 'claimed')
         AND t.created_at < now() - make_interval(secs => $1::float8 / 1000)
       LIMIT $2`,
      [this.options.sandboxDelayMs, SIMULATED_JOBS_AT_ONCE],
    );
    let completed = 0;
    for (const { job_id: jobId } of due) {
      const done = await this.dataSource.transaction(async (manager) => {
        await lockJob(manager, jobId);
        const approved = await rows<{ id: string }>(
          manager,
          `UPDATE translation.review_tasks SET status = 'approved', answered_at = now(), lease_until = NULL
           WHERE job_id = $1 AND status IN ('pending', 'claimed') AND created_at < now() - make_interval(secs => $2::float8 / 1000)
           RETURNING id`,
          [jobId, this.options.sandboxDelayMs],
        );
        await this.learn(manager, jobId, await manager.findBy(ReviewTask, { id: In(approved.map((task) => task.id)) }));
        return this.completeIfAnswered(manager, jobId);
      });
      if (done) completed++;
    }
    return completed;
  }

  /**
   * Teaches the job's account what answered tasks say, in the verdict's transaction: the memory
   * of the job's mode, so a sandbox job's simulated approval teaches the sandbox memory only.
   */
  private async learn(manager: EntityManager, jobId: string, tasks: ReviewTask[]): Promise<void> {
    if (tasks.length === 0) return;
    const job = await manager.findOneOrFail(BatchJob, { select: { id: true, accountId: true, sandbox: true, source: true, format: true }, where: { id: jobId } });
    const texts = job.source ? [] : await manager.find(BatchText, { select: { idx: true, detectedSource: true }, where: { jobId, idx: In(tasks.map((task) => task.idx)) } });
    const detected = new Map(texts.map((text) => [text.idx, text.detectedSource]));
    await this.memory.learn(
      manager,
      { accountId: job.accountId, sandbox: job.sandbox },
      tasks.map((task) => ({
        source: job.source ?? detected.get(task.idx) ?? null,
        target: task.target,
        format: job.format,
        sourceText: task.sourceText,
        translation: task.verdictTranslation ?? task.machineTranslation,
        origin: task.status === 'edited' ? 'reviewer_edit' : 'reviewer_approval',
        provenance: { job: job.id, reviewer: task.reviewerId },
      })),
    );
  }

  /** With every task of the job answered: puts the edits into the results and completes the job. */
  private async completeIfAnswered(manager: EntityManager, jobId: string): Promise<boolean> {
    const open = await manager.count(ReviewTask, { where: { jobId, status: In(['pending', 'claimed']) } });
    if (open > 0) return false;
    await manager.query(
      `UPDATE translation.batch_texts b SET translation = t.verdict_translation
       FROM translation.review_tasks t
       WHERE t.job_id = $1 AND t.status = 'edited' AND b.job_id = t.job_id AND b.idx = t.idx`,
      [jobId],
    );
    return this.progress.completeWithin(manager, jobId);
  }

  /** The tasks the reviewer claimed, of jobs they may still review. */
  private ownTasks(reviewer: Reviewer) {
    return this.dataSource.manager
      .createQueryBuilder(ReviewTask, 't')
      .innerJoin(BatchJob, 'j', 'j.id = t.job_id')
      .where(`t.reviewer_id = :reviewer AND ${reviewable('CAST(:account AS uuid)')}`, { reviewer: reviewer.id, account: reviewer.accountId });
  }

  /** The job of a task the reviewer may review, whoever holds it; 404 for any other task, as for one that does not exist. */
  private async reachable(manager: EntityManager, reviewer: Reviewer, taskId: string): Promise<string> {
    const [task] = UUID.test(taskId)
      ? await manager.query<{ job_id: string }[]>(
          `SELECT t.job_id FROM translation.review_tasks t JOIN translation.batch_jobs j ON j.id = t.job_id WHERE t.id = $1 AND ${reviewable('$2::uuid')}`,
          [taskId, reviewer.accountId],
        )
      : [];
    if (!task) throw notFound(taskId);
    return task.job_id;
  }

  private async view(task: ReviewTask): Promise<ClaimedTask> {
    const manager = this.dataSource.manager;
    const text = await manager.findOneBy(BatchText, { jobId: task.jobId, idx: task.idx });
    const { style, ...reviewedText } = await reviewed(manager, task);
    return { task, sourceLanguage: text?.detectedSource ?? null, rules: editRules(reviewedText), style: style && { name: style.name, notes: style.notes } };
  }
}

/** The task's texts with its job's format, glossary and style profile (frozen at submission). */
async function reviewed(manager: EntityManager, task: ReviewTask) {
  const job = await manager.findOneOrFail(BatchJob, { select: { format: true, glossary: true, styleProfile: true }, where: { id: task.jobId } });
  return {
    format: job.format,
    sourceText: task.sourceText,
    machineTranslation: task.machineTranslation,
    glossary: job.glossary?.entries ?? [],
    doNotTranslate: job.styleProfile?.doNotTranslate ?? [],
    style: job.styleProfile,
  };
}

/** The reviewer holds an unexpired claim on the task: what answering and renewing both need. */
function assertHeld(task: ReviewTask, reviewer: Reviewer): void {
  if (task.status === 'approved' || task.status === 'edited') throw conflict('already_answered', 'This task has been answered already');
  if (task.status !== 'claimed' || task.reviewerId !== reviewer.id) throw conflict('not_claimed', 'You hold no claim on this task: take it as the next task of its language first');
  if (task.leaseUntil! <= new Date()) throw conflict('lease_expired', 'Your lease on this task ran out; it went back to the pool');
}

async function lockJob(manager: EntityManager, jobId: string): Promise<void> {
  await manager.query(`SELECT id FROM translation.batch_jobs WHERE id = $1 FOR UPDATE`, [jobId]);
}

async function rows<T>(manager: EntityManager, sql: string, parameters: unknown[]): Promise<T[]> {
  // The structured result carries the rows of an UPDATE ... RETURNING, which a plain query() pairs with a count.
  const result = await manager.queryRunner!.query(sql, parameters, true);
  return result.records as T[];
}

function notFound(taskId: string): ApiError {
  return ApiError.notFound(`Review task ${taskId} not found`);
}

function conflict(code: string, message: string): ApiError {
  return new ApiError(409, code, message);
}
