import { Body, Controller, Get, Put } from '@nestjs/common';
import { ApiOkResponse, ApiOperation, ApiTags, ApiUnprocessableEntityResponse } from '@nestjs/swagger';
import { TranslationErrorDto } from '@platform/errors';
import { ReviewRouting } from '@platform/review';
import { SessionAuth } from '../sessions/session-auth.decorator';
import { CurrentUser, Roles } from '../sessions/session.guard';
import type { SignedIn } from '../sessions/sessions.service';
import { ReviewCoverageDto, ReviewPoolChangeDto, ReviewPoolResponseDto } from './dtos/review-pool.dto';

/**
 * Who reviews the account's review-tier jobs: its own reviewers always, and the platform's (the
 * operator's reviewers) in the languages the owner opts into. Each job keeps the choice made for
 * its language when it was submitted.
 */
@ApiTags('review')
@SessionAuth()
@Roles('owner')
@Controller('console/api/review-pool')
export class ReviewPoolController {
  constructor(private readonly routing: ReviewRouting) {}

  @Get()
  @ApiOperation({
    summary: "Who reviews the account's live review-tier jobs, per language (owners only)",
    description:
      "Per EU language: the account's own reviewers, whether the platform has reviewers, and whether the account lets them review it. " +
      'A live job in a language nobody can review for the account is refused at submission with 422.',
  })
  @ApiOkResponse({ type: ReviewPoolResponseDto })
  async get(@CurrentUser() user: SignedIn): Promise<ReviewPoolResponseDto> {
    return this.answer(user.accountId);
  }

  @Put()
  @ApiOperation({
    summary: "Choose the languages in which the platform's reviewers may review the account's jobs (owners only)",
    description: 'Applies to jobs submitted from now on; each job keeps the choice made when it was submitted.',
  })
  @ApiOkResponse({ type: ReviewPoolResponseDto })
  @ApiUnprocessableEntityResponse({ type: TranslationErrorDto, description: 'invalid_request: pool_languages is not a list of EU language codes' })
  async set(@CurrentUser() user: SignedIn, @Body() body: ReviewPoolChangeDto): Promise<ReviewPoolResponseDto> {
    await this.routing.setPoolLanguages(user.accountId, body.pool_languages);
    return this.answer(user.accountId);
  }

  private async answer(accountId: string): Promise<ReviewPoolResponseDto> {
    const coverage = await this.routing.coverage(accountId);
    return { ok: true, pool_languages: coverage.filter((language) => language.pool).map((language) => language.language), coverage: coverage.map((language) => ReviewCoverageDto.from(language)) };
  }
}
