import { Body, Controller, createParamDecorator, ExecutionContext, Get, HttpCode, Param, Post, Query, UseGuards } from '@nestjs/common';
import {
  ApiBearerAuth,
  ApiConflictResponse,
  ApiForbiddenResponse,
  ApiNotFoundResponse,
  ApiOkResponse,
  ApiOperation,
  ApiParam,
  ApiTags,
  ApiUnauthorizedResponse,
  ApiUnprocessableEntityResponse,
} from '@nestjs/swagger';
import { Public } from '@platform/auth';
import { TranslationErrorDto } from '@platform/errors';
import { assertReviews, ReviewAnswerResponseDto, ReviewLanguageQueryDto, ReviewTasks, type Reviewer } from '@platform/review';
import type { FastifyRequest } from 'fastify';
import { NextTaskResponseDto, ReviewTaskDto, ReviewVerdictDto } from './dtos/review-task.dto';
import { ReviewerGuard } from './reviewer.guard';

const CurrentReviewer = createParamDecorator((_: unknown, context: ExecutionContext) => context.switchToHttp().getRequest<FastifyRequest>().reviewer);

/** Native-speaker reviewers answer the sampled texts of review-tier jobs. Not for API keys. */
@ApiTags('review')
@ApiBearerAuth('reviewer')
@ApiUnauthorizedResponse({ type: TranslationErrorDto, description: 'invalid_key: no valid reviewer token (`rvw_...`)' })
@Public()
@UseGuards(ReviewerGuard)
@Controller('api/v1/review/tasks')
export class ReviewController {
  constructor(private readonly tasks: ReviewTasks) {}

  @Get('next')
  @ApiOperation({
    summary: 'Claim the next review task in a language',
    description:
      'Claims the oldest open task (pending, or claimed by someone whose lease ran out) for a lease of REVIEW_LEASE_SECONDS ' +
      '(default 900). Answers 200 with `task: null` when none is open.',
  })
  @ApiOkResponse({ type: NextTaskResponseDto })
  @ApiForbiddenResponse({ type: TranslationErrorDto, description: 'forbidden: the language is not one of the reviewer\u2019s' })
  @ApiUnprocessableEntityResponse({ type: TranslationErrorDto, description: 'unsupported_language: lang missing or malformed' })
  async next(@CurrentReviewer() reviewer: Reviewer, @Query() query: ReviewLanguageQueryDto): Promise<NextTaskResponseDto> {
    assertReviews(reviewer, query.lang);
    const claimed = await this.tasks.claim(reviewer, query.lang);
    return { ok: true, task: claimed && ReviewTaskDto.from(claimed) };
  }

  @Post(':id')
  @HttpCode(200)
  @ApiOperation({
    summary: 'Answer a claimed review task',
    description:
      '`{verdict: "approve"}` keeps the machine translation; `{verdict: "edit", translation}` replaces that result of the job. ' +
      'Only the reviewer holding an unexpired lease may answer. The last answer of a job completes it and fires its webhook.',
  })
  @ApiParam({ name: 'id', description: 'Task id from GET /api/v1/review/tasks/next' })
  @ApiOkResponse({ type: ReviewAnswerResponseDto })
  @ApiNotFoundResponse({ type: TranslationErrorDto, description: 'not_found: no such task' })
  @ApiConflictResponse({
    type: TranslationErrorDto,
    description: 'already_answered: answered before; not_claimed: the caller holds no claim on it; lease_expired: the lease ran out',
  })
  @ApiUnprocessableEntityResponse({
    type: TranslationErrorDto,
    description:
      'unsupported_language: verdict unknown, an edit without translation, or an edit that drops, alters or adds a variable or markup of the machine ' +
      'translation or drops a binding glossary term (`problems` names each)',
  })
  async answer(@CurrentReviewer() reviewer: Reviewer, @Param('id') id: string, @Body() body: ReviewVerdictDto): Promise<ReviewAnswerResponseDto> {
    const verdict = body.verdict === 'edit' ? { verdict: 'edit' as const, translation: body.translation! } : { verdict: 'approve' as const };
    const task = await this.tasks.answer(reviewer, id, verdict);
    return { ok: true, task: task.id, status: task.status as ReviewAnswerResponseDto['status'] };
  }
}
