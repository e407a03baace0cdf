import { Body, Controller, Get, HttpCode, Param, Post, Query } from '@nestjs/common';
import {
  ApiAcceptedResponse,
  ApiNotFoundResponse,
  ApiOkResponse,
  ApiOperation,
  ApiParam,
  ApiPayloadTooLargeResponse,
  ApiPaymentRequiredResponse,
  ApiTags,
  ApiUnprocessableEntityResponse,
} from '@nestjs/swagger';
import { ApiKeyAuth, CurrentApiKey } from '@platform/auth';
import { BatchAcceptedDto, BatchJobDto, BatchListQueryDto, BatchListResponseDto, BatchReader, DEFAULT_BATCH_PAGE } from '@platform/batches';
import type { ApiKeyPrincipal } from '@platform/contracts';
import { TranslationErrorDto } from '@platform/errors';
import { ApiRateLimited, RATE_LIMIT_HEADER_DOCS } from '@platform/quota';
import { Idempotent } from '../idempotency/idempotent.decorator';
import { BatchRequestDto } from './dtos/batch-request.dto';
import { BatchSubmission } from './batch-submission.service';

@ApiTags('batches')
@ApiKeyAuth()
@ApiRateLimited(TranslationErrorDto)
@Controller('api/v1/batches')
export class BatchesController {
  constructor(
    private readonly batches: BatchSubmission,
    private readonly reader: BatchReader,
  ) {}

  @Post()
  @HttpCode(202)
  @Idempotent()
  @ApiOperation({
    summary: 'Submit a batch of up to 1,000 texts',
    description:
      'Validated like POST /api/v1/translate (each text against its format, the source detected per group of 50 texts when not given) ' +
      'and charged in full now: a refused batch costs nothing, an accepted one is not charged again. Answers at once; ' +
      'poll GET /api/v1/batches/{job} or receive the `batch.completed` webhook. If the engine keeps failing the job ends `failed` ' +
      'and its words are refunded. In tier review the job stays `processing` until reviewers have answered its sampled texts: the ' +
      "account's own reviewers, and the platform's where the account lets them review the target language; a live job in a language " +
      'nobody reviews for the account is refused with 422.',
  })
  @ApiAcceptedResponse({ type: BatchAcceptedDto, headers: RATE_LIMIT_HEADER_DOCS })
  @ApiPaymentRequiredResponse({ type: TranslationErrorDto, description: "quota_exceeded: the words would pass a monthly limit, named in the message (the key's own limit, the account's monthly ceiling, or the account's sandbox quota); nothing accepted or charged" })
  @ApiPayloadTooLargeResponse({ type: TranslationErrorDto, description: 'payload_too_large: more than 1,000 texts or 1,000,000 characters' })
  @ApiUnprocessableEntityResponse({ type: TranslationErrorDto, description: 'unsupported_language: language pair unavailable, a text invalid for its format, a parameter invalid, or (tier review, live) nobody to review the target language' })
  async submit(@CurrentApiKey() key: ApiKeyPrincipal, @Body() body: BatchRequestDto): Promise<BatchAcceptedDto> {
    const job = await this.batches.submit(key, body);
    return { ok: true, job: job.id, status: 'processing' };
  }

  @Get()
  @ApiOperation({
    summary: 'Batches of the account, newest first',
    description:
      "The jobs of the calling key's account and mode (sandbox or live), whichever key submitted them, a page at a time: " +
      'their state without texts or results. Follow `next_cursor` until it is null; jobs submitted meanwhile do not shift ' +
      'later pages (no job is listed twice or skipped), they come first in a new listing.',
  })
  @ApiOkResponse({ type: BatchListResponseDto, headers: RATE_LIMIT_HEADER_DOCS })
  @ApiUnprocessableEntityResponse({ type: TranslationErrorDto, description: 'unsupported_language: limit out of 1..100, or a cursor this list did not give' })
  async list(@CurrentApiKey() key: ApiKeyPrincipal, @Query() query: BatchListQueryDto): Promise<BatchListResponseDto> {
    return { ok: true, ...(await this.reader.list(key, { limit: query.limit ?? DEFAULT_BATCH_PAGE, cursor: query.cursor })) };
  }

  @Get(':job')
  @ApiOperation({ summary: 'State of a batch, with its results once done', description: 'Jobs are kept 30 days after they finish.' })
  @ApiParam({ name: 'job', description: 'Job id from POST /api/v1/batches' })
  @ApiOkResponse({ type: BatchJobDto, headers: RATE_LIMIT_HEADER_DOCS })
  @ApiNotFoundResponse({ type: TranslationErrorDto, description: 'not_found: no such job in this account and mode (sandbox or live), or it expired' })
  view(@CurrentApiKey() key: ApiKeyPrincipal, @Param('job') job: string): Promise<BatchJobDto> {
    return this.reader.view(key, job);
  }
}
