import { Controller, Get, Query } from '@nestjs/common';
import { ApiOkResponse, ApiOperation, ApiTags } from '@nestjs/swagger';
import { ReviewProgress } from '@platform/review';
import { accountMode, OffsetPageQueryDto, pageOf } from '../account-mode/mode-query.dto';
import { SessionAuth } from '../sessions/session-auth.decorator';
import { CurrentUser, Roles } from '../sessions/session.guard';
import type { SignedIn } from '../sessions/sessions.service';
import { JobReviewProgressDto, ReviewProgressResponseDto } from './dtos/review-progress.dto';

@ApiTags('review')
@SessionAuth()
@Roles('owner')
@Controller('console/api/review-progress')
export class ReviewProgressController {
  constructor(private readonly progress: ReviewProgress) {}

  @Get()
  @ApiOperation({
    summary: "Review progress of the account's review-tier jobs (owners only)",
    description: 'Per job, its sampled texts by state. In sandbox, review is simulated: tasks are approved after REVIEW_SANDBOX_DELAY_MS.',
  })
  @ApiOkResponse({ type: ReviewProgressResponseDto })
  async list(@CurrentUser() user: SignedIn, @Query() query: OffsetPageQueryDto): Promise<ReviewProgressResponseDto> {
    const page = await this.progress.list(accountMode(user, query), pageOf(query));
    return { ok: true, jobs: page.jobs.map((job) => JobReviewProgressDto.from(job)), total: page.total };
  }
}
