import { Body, Controller, Get, HttpCode, Param, Post, Query } from '@nestjs/common';
import { ApiConflictResponse, ApiNotFoundResponse, ApiOkResponse, ApiOperation, ApiParam, ApiTags, ApiUnprocessableEntityResponse } from '@nestjs/swagger';
import { TranslationErrorDto } from '@platform/errors';
import { assertReviews, ReviewAnswerResponseDto, ReviewLanguageQueryDto, ReviewTasks, type Reviewer } from '@platform/review';
import { SessionAuth } from '../sessions/session-auth.decorator';
import { CurrentUser, Roles } from '../sessions/session.guard';
import type { SignedIn } from '../sessions/sessions.service';
import { ConsoleReviewers } from './console-reviewers.service';
import {
  EditRefusedDto,
  NextReviewTaskResponseDto,
  RecentReviewTasksResponseDto,
  RenewedLeaseResponseDto,
  ReviewEditDto,
  ReviewerProfileDto,
  ReviewTaskResponseDto,
  ReviewTaskSummaryDto,
  ReviewTaskViewDto,
  ReviewWorkspaceResponseDto,
  TaskSuggestionsResponseDto,
} from './dtos/review.dto';

const TASK_ID = { name: 'id', format: 'uuid', description: 'Task id' };
const HELD_CONFLICTS =
  'already_answered: answered before; not_claimed: someone else holds it now, or you never did; lease_expired: your lease ran out and the task went back to the pool';

/**
 * The reviewer workspace: a console user with the role reviewer claims, edits and approves the
 * review tasks of their languages, through the same rules as the public review routes.
 */
@ApiTags('review')
@SessionAuth('forbidden: not a reviewer, no languages yet, or a language that is not yours; reviewer_revoked: an operator revoked your reviewer access')
@Roles('reviewer')
@Controller('console/api/review')
export class ReviewWorkspaceController {
  constructor(
    private readonly reviewers: ConsoleReviewers,
    private readonly tasks: ReviewTasks,
  ) {}

  @Get()
  @ApiOperation({ summary: 'Your languages and how long a lease holds' })
  @ApiOkResponse({ type: ReviewWorkspaceResponseDto })
  async workspace(@CurrentUser() user: SignedIn): Promise<ReviewWorkspaceResponseDto> {
    const reviewer = await this.reviewers.of(user.userId);
    return { ok: true, reviewer: ReviewerProfileDto.from(reviewer), lease_seconds: this.tasks.leaseSeconds };
  }

  @Get('tasks/next')
  @ApiOperation({
    summary: 'Your task in a language: the one you hold, or the next open one, claimed for you',
    description:
      'Answers the task you already hold in that language while its lease runs (after a reload, say); otherwise claims the oldest open task, ' +
      'as GET /api/v1/review/tasks/next does, with a lease of REVIEW_LEASE_SECONDS. `task: null` when none is open.',
  })
  @ApiOkResponse({ type: NextReviewTaskResponseDto })
  @ApiUnprocessableEntityResponse({ type: TranslationErrorDto, description: 'invalid_request: lang missing or malformed' })
  async next(@CurrentUser() user: SignedIn, @Query() query: ReviewLanguageQueryDto): Promise<NextReviewTaskResponseDto> {
    const reviewer = await this.reviewers.of(user.userId);
    assertReviews(reviewer, query.lang);
    const task = (await this.tasks.held(reviewer, query.lang)) ?? (await this.tasks.claim(reviewer, query.lang));
    return { ok: true, task: task && ReviewTaskViewDto.from(task) };
  }

  @Get('tasks')
  @ApiOperation({ summary: 'Your recent tasks, to go back and forth between them', description: 'The tasks you hold, then those you answered, latest first; at most 50.' })
  @ApiOkResponse({ type: RecentReviewTasksResponseDto })
  async recent(@CurrentUser() user: SignedIn): Promise<RecentReviewTasksResponseDto> {
    const tasks = await this.tasks.recent(await this.reviewers.of(user.userId));
    return { ok: true, tasks: tasks.map((task) => ReviewTaskSummaryDto.from(task)) };
  }

  @Get('tasks/:id')
  @ApiOperation({ summary: 'One of your tasks, held or answered' })
  @ApiParam(TASK_ID)
  @ApiOkResponse({ type: ReviewTaskResponseDto })
  @ApiNotFoundResponse({ type: TranslationErrorDto, description: 'not_found: no task of yours has this id' })
  async get(@CurrentUser() user: SignedIn, @Param('id') id: string): Promise<ReviewTaskResponseDto> {
    return { ok: true, task: ReviewTaskViewDto.from(await this.tasks.get(await this.reviewers.of(user.userId), id)) };
  }

  @Get('tasks/:id/suggestions')
  @ApiOperation({
    summary: 'Translation-memory suggestions for one of your tasks, segment by segment',
    description:
      'From the memories of the account that submitted the job, in the job\u2019s mode: exact matches first, then fuzzy ones with their similarity, ' +
      'each with its memory, origin and provenance. Nothing the request says chooses the account or the languages: they are the task\u2019s.',
  })
  @ApiParam(TASK_ID)
  @ApiOkResponse({ type: TaskSuggestionsResponseDto })
  @ApiNotFoundResponse({ type: TranslationErrorDto, description: 'not_found: no task of yours has this id' })
  async suggestions(@CurrentUser() user: SignedIn, @Param('id') id: string): Promise<TaskSuggestionsResponseDto> {
    return TaskSuggestionsResponseDto.from(await this.tasks.suggestions(await this.reviewers.of(user.userId), id));
  }

  @Post('tasks/:id/lease')
  @HttpCode(200)
  @ApiOperation({ summary: 'Renew your lease on a task', description: 'The lease runs REVIEW_LEASE_SECONDS from now; only while it still runs.' })
  @ApiParam(TASK_ID)
  @ApiOkResponse({ type: RenewedLeaseResponseDto })
  @ApiNotFoundResponse({ type: TranslationErrorDto, description: 'not_found: no such task' })
  @ApiConflictResponse({ type: TranslationErrorDto, description: HELD_CONFLICTS })
  async renew(@CurrentUser() user: SignedIn, @Param('id') id: string): Promise<RenewedLeaseResponseDto> {
    const task = await this.tasks.renew(await this.reviewers.of(user.userId), id);
    return { ok: true, task: task.id, lease_until: task.leaseUntil!.toISOString() };
  }

  @Post('tasks/:id/edit')
  @HttpCode(200)
  @ApiOperation({
    summary: 'Answer a task you hold with your edit',
    description: 'The edit replaces the machine translation in the job\u2019s results. It must keep the task\u2019s tokens and terms.',
  })
  @ApiParam(TASK_ID)
  @ApiOkResponse({ type: ReviewAnswerResponseDto })
  @ApiNotFoundResponse({ type: TranslationErrorDto, description: 'not_found: no such task' })
  @ApiConflictResponse({ type: TranslationErrorDto, description: HELD_CONFLICTS })
  @ApiUnprocessableEntityResponse({
    type: EditRefusedDto,
    description: 'invalid_request: no translation, or one that drops, alters or adds a variable or markup, or drops a glossary term; `problems` names each',
  })
  async edit(@CurrentUser() user: SignedIn, @Param('id') id: string, @Body() body: ReviewEditDto): Promise<ReviewAnswerResponseDto> {
    return this.answer(await this.reviewers.of(user.userId), id, body.translation);
  }

  @Post('tasks/:id/approve')
  @HttpCode(200)
  @ApiOperation({ summary: 'Answer a task you hold by approving the machine translation' })
  @ApiParam(TASK_ID)
  @ApiOkResponse({ type: ReviewAnswerResponseDto })
  @ApiNotFoundResponse({ type: TranslationErrorDto, description: 'not_found: no such task' })
  @ApiConflictResponse({ type: TranslationErrorDto, description: HELD_CONFLICTS })
  async approve(@CurrentUser() user: SignedIn, @Param('id') id: string): Promise<ReviewAnswerResponseDto> {
    return this.answer(await this.reviewers.of(user.userId), id);
  }

  private async answer(reviewer: Reviewer, id: string, translation?: string): Promise<ReviewAnswerResponseDto> {
    const task = await this.tasks.answer(reviewer, id, translation === undefined ? { verdict: 'approve' } : { verdict: 'edit', translation });
    return { ok: true, task: task.id, status: task.status as ReviewAnswerResponseDto['status'] };
  }
}
