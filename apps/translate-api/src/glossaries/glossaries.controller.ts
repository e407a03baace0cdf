import { Body, Controller, Delete, Get, Param, Post, Put, Query, Res } from '@nestjs/common';
import {
  ApiCreatedResponse,
  ApiExtraModels,
  ApiNotFoundResponse,
  ApiOkResponse,
  ApiOperation,
  ApiParam,
  ApiProduces,
  ApiTags,
  getSchemaPath,
} from '@nestjs/swagger';
import { ApiKeyAuth, CurrentApiKey } from '@platform/auth';
import type { ApiKeyPrincipal } from '@platform/contracts';
import { TranslationErrorDto } from '@platform/errors';
import {
  GlossaryDeletedResponseDto,
  GlossaryDetailDto,
  GlossaryDetailResponseDto,
  GlossaryListResponseDto,
  GlossaryResponseDto,
  GlossaryService,
  GlossarySummaryDto,
  glossaryToCsv,
} from '@platform/glossaries';
import { ApiRateLimited, RATE_LIMIT_HEADER_DOCS } from '@platform/quota';
import type { FastifyReply } from 'fastify';
import { Idempotent } from '../idempotency/idempotent.decorator';
import { GlossaryFormatQueryDto, GlossaryUploadQueryDto } from './dtos/glossary-query.dto';
import { ApiGlossaryUpload, GLOSSARY_REQUEST_BODY, glossaryDraftOf } from './glossary-upload';

const GLOSSARY_ID = { name: 'id', format: 'uuid', description: 'Glossary id' };
const NOT_FOUND = { type: TranslationErrorDto, description: 'not_found: no such glossary in this account and mode (sandbox or live)' };

@ApiTags('glossaries')
@ApiKeyAuth()
@ApiRateLimited(TranslationErrorDto)
@Controller('api/v1/glossaries')
export class GlossariesController {
  constructor(private readonly glossaries: GlossaryService) {}

  @Post()
  @Idempotent()
  @ApiGlossaryUpload()
  @ApiOperation({
    summary: 'Create a glossary',
    description: 'JSON or CSV. The glossary belongs to the mode of the key (sandbox or live). Each mode of an account holds at most 20 glossaries of at most 5,000 entries each.',
    requestBody: GLOSSARY_REQUEST_BODY,
  })
  @ApiCreatedResponse({ type: GlossaryResponseDto, headers: RATE_LIMIT_HEADER_DOCS })
  async create(@CurrentApiKey() key: ApiKeyPrincipal, @Body() body: unknown, @Query() query: GlossaryUploadQueryDto): Promise<GlossaryResponseDto> {
    const glossary = await this.glossaries.create(key, glossaryDraftOf(body, query));
    return { ok: true, glossary: GlossarySummaryDto.from(glossary) };
  }

  @Get()
  @ApiOperation({ summary: "List the account's glossaries", description: 'Those of the mode of the key (sandbox or live), without their entries.' })
  @ApiOkResponse({ type: GlossaryListResponseDto, headers: RATE_LIMIT_HEADER_DOCS })
  async list(@CurrentApiKey() key: ApiKeyPrincipal): Promise<GlossaryListResponseDto> {
    const glossaries = await this.glossaries.list(key);
    return { ok: true, glossaries: glossaries.map((glossary) => GlossarySummaryDto.from(glossary)) };
  }

  @Get(':id')
  @ApiOperation({ summary: 'A glossary with its entries', description: 'As JSON, or with `?format=csv` as CSV in the upload layout.' })
  @ApiParam(GLOSSARY_ID)
  @ApiProduces('application/json', 'text/csv')
  @ApiExtraModels(GlossaryDetailResponseDto)
  @ApiOkResponse({
    headers: RATE_LIMIT_HEADER_DOCS,
    content: {
      'application/json': { schema: { $ref: getSchemaPath(GlossaryDetailResponseDto) } },
      'text/csv': { schema: { type: 'string', example: 'term,de,fr\r\ncloud,Wolke,nuage\r\n' } },
    },
  })
  @ApiNotFoundResponse(NOT_FOUND)
  async get(
    @CurrentApiKey() key: ApiKeyPrincipal,
    @Param('id') id: string,
    @Query() { format }: GlossaryFormatQueryDto,
    @Res({ passthrough: true }) reply: FastifyReply,
  ): Promise<GlossaryDetailResponseDto | string> {
    const glossary = await this.glossaries.get(key, id);
    if (format !== 'csv') return { ok: true, glossary: GlossaryDetailDto.from(glossary) };
    reply.type('text/csv; charset=utf-8');
    return glossaryToCsv(glossary);
  }

  @Put(':id')
  @ApiGlossaryUpload()
  @ApiOperation({
    summary: 'Replace a glossary',
    description: 'Name, source and all entries at once, in the same JSON or CSV form as creation; the id stays. The next request uses it.',
    requestBody: GLOSSARY_REQUEST_BODY,
  })
  @ApiParam(GLOSSARY_ID)
  @ApiOkResponse({ type: GlossaryResponseDto, headers: RATE_LIMIT_HEADER_DOCS })
  @ApiNotFoundResponse(NOT_FOUND)
  async replace(
    @CurrentApiKey() key: ApiKeyPrincipal,
    @Param('id') id: string,
    @Body() body: unknown,
    @Query() query: GlossaryUploadQueryDto,
  ): Promise<GlossaryResponseDto> {
    const glossary = await this.glossaries.replace(key, id, glossaryDraftOf(body, query));
    return { ok: true, glossary: GlossarySummaryDto.from(glossary) };
  }

  @Delete(':id')
  @ApiOperation({ summary: 'Delete a glossary', description: 'Requests naming it afterwards are refused with 422.' })
  @ApiParam(GLOSSARY_ID)
  @ApiOkResponse({ type: GlossaryDeletedResponseDto, headers: RATE_LIMIT_HEADER_DOCS })
  @ApiNotFoundResponse(NOT_FOUND)
  async delete(@CurrentApiKey() key: ApiKeyPrincipal, @Param('id') id: string): Promise<GlossaryDeletedResponseDto> {
    await this.glossaries.delete(key, id);
    return { ok: true };
  }
}
