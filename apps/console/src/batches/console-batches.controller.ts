import { Controller, Get, Param, Query, Res } from '@nestjs/common';
import { ApiConflictResponse, ApiExtraModels, ApiNotFoundResponse, ApiOkResponse, ApiOperation, ApiParam, ApiProduces, ApiTags, ApiUnprocessableEntityResponse, getSchemaPath } from '@nestjs/swagger';
import { BatchListResponseDto, BatchReader, DEFAULT_BATCH_PAGE } from '@platform/batches';
import { ApiError, TranslationErrorDto } from '@platform/errors';
import { defuseFormula, toCsv } from '@platform/glossaries';
import { attachment } from '@platform/service-kit';
import type { FastifyReply } from 'fastify';
import { accountMode, OffsetPageQueryDto, pageOf } from '../account-mode/mode-query.dto';
import { SessionAuth } from '../sessions/session-auth.decorator';
import { CurrentUser, Roles } from '../sessions/session.guard';
import type { SignedIn } from '../sessions/sessions.service';
import { BatchDetailResponseDto, BatchResultsDto, BatchResultsQueryDto, ConsoleBatchListQueryDto } from './dtos/console-batch.dto';

const JOB = { name: 'job', description: 'Job id', example: 'job_3kTq9ZbW0xYc1LmN8pQr2sUv' };
const NOT_FOUND = { type: TranslationErrorDto, description: 'not_found: no such job in this account and mode, or it expired' };
const CSV_COLUMNS = ['index', 'source_text', 'translation', 'detected_source', 'words'] as const;

/** The account's batch jobs as the public API shows them, with their source texts beside the results. */
@ApiTags('batches')
@SessionAuth()
@Roles('owner', 'member')
@Controller('console/api/batches')
export class ConsoleBatchesController {
  constructor(private readonly batches: BatchReader) {}

  @Get()
  @ApiOperation({ summary: "The mode's batch jobs, newest first, a page at a time", description: 'As GET /api/v1/batches: follow `next_cursor` until it is null.' })
  @ApiOkResponse({ type: BatchListResponseDto })
  @ApiUnprocessableEntityResponse({ type: TranslationErrorDto, description: 'invalid_request: limit out of 1..100, or a cursor this list did not give' })
  async list(@CurrentUser() user: SignedIn, @Query() query: ConsoleBatchListQueryDto): Promise<BatchListResponseDto> {
    return { ok: true, ...(await this.batches.list(accountMode(user, query), { limit: query.limit ?? DEFAULT_BATCH_PAGE, cursor: query.cursor })) };
  }

  @Get(':job')
  @ApiOperation({ summary: 'A job with a page of its texts, each beside its translation' })
  @ApiParam(JOB)
  @ApiOkResponse({ type: BatchDetailResponseDto })
  @ApiNotFoundResponse(NOT_FOUND)
  async detail(@CurrentUser() user: SignedIn, @Param('job') job: string, @Query() query: OffsetPageQueryDto): Promise<BatchDetailResponseDto> {
    return { ok: true, ...(await this.batches.withTexts(accountMode(user, query), job, pageOf(query))) };
  }

  @Get(':job/results')
  @ApiOperation({
    summary: 'Download the results of a finished job',
    description: 'JSON, or CSV with the columns index, source_text, translation, detected_source, words (cells spreadsheets would run as formulas start with an apostrophe).',
  })
  @ApiParam(JOB)
  @ApiProduces('application/json', 'text/csv')
  @ApiExtraModels(BatchResultsDto)
  @ApiOkResponse({
    content: {
      'application/json': { schema: { $ref: getSchemaPath(BatchResultsDto) } },
      'text/csv': { schema: { type: 'string', example: 'index,source_text,translation,detected_source,words\r\n0,Good morning!,¡Buenos días!,en,2\r\n' } },
    },
  })
  @ApiNotFoundResponse(NOT_FOUND)
  @ApiConflictResponse({ type: TranslationErrorDto, description: 'batch_not_done: the job is still processing, or it failed' })
  async results(@CurrentUser() user: SignedIn, @Param('job') job: string, @Query() query: BatchResultsQueryDto, @Res({ passthrough: true }) reply: FastifyReply): Promise<BatchResultsDto | string> {
    const { job: summary, texts } = await this.batches.withTexts(accountMode(user, query), job);
    if (summary.status !== 'done') throw new ApiError(409, 'batch_not_done', `Batch job ${job} is ${summary.status}; results can be downloaded once it is done`);
    const format = query.format ?? 'json';
    reply.header('content-disposition', attachment(`${summary.id}.${format}`));
    if (format === 'json') return { job: summary.id, target: summary.target, results: texts };
    reply.type('text/csv; charset=utf-8');
    return toCsv([[...CSV_COLUMNS], ...texts.map((text) => CSV_COLUMNS.map((column) => defuseFormula(String(text[column] ?? ''))))]);
  }
}
