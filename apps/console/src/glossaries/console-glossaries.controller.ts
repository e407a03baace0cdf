import { Body, Controller, Delete, Get, Header, Param, Post, Put, Query, Res } from '@nestjs/common';
import {
  ApiCreatedResponse,
  ApiNotFoundResponse,
  ApiOkResponse,
  ApiOperation,
  ApiParam,
  ApiPayloadTooLargeResponse,
  ApiProduces,
  ApiTags,
  ApiUnprocessableEntityResponse,
} from '@nestjs/swagger';
import { ApiError, TranslationErrorDto } from '@platform/errors';
import {
  GlossaryDeletedResponseDto,
  glossaryFromCsv,
  glossaryFromJson,
  GlossaryResponseDto,
  GlossaryService,
  GlossarySummaryDto,
  glossaryToCsv,
  type GlossaryEntry,
} from '@platform/glossaries';
import { attachment, BodyLimit } from '@platform/service-kit';
import type { FastifyReply } from 'fastify';
import { accountMode, ModeQueryDto, OffsetPageQueryDto, pageOf } from '../account-mode/mode-query.dto';
import { SessionAuth } from '../sessions/session-auth.decorator';
import { CurrentUser, Roles } from '../sessions/session.guard';
import type { SignedIn } from '../sessions/sessions.service';
import {
  GlossaryCsvUploadDto,
  GlossaryEntriesQueryDto,
  GlossaryEntriesResponseDto,
  GlossaryEntryInputDto,
  GlossaryEntryResponseDto,
  GlossaryPageResponseDto,
} from './dtos/console-glossary.dto';

const GLOSSARY_ID = { name: 'id', format: 'uuid', description: 'Glossary id' };
const NOT_FOUND = { type: TranslationErrorDto, description: 'not_found: no such glossary in this account and mode' };
const INVALID = {
  type: TranslationErrorDto,
  description:
    'invalid_request: the glossary would break a rule of the public API (a language outside the 24 official EU languages, a target equal ' +
    'to the source, an empty or repeated term, malformed CSV: the message names the line) or the mode already holds 20 glossaries',
};
/** A CSV of 5,000 entries in several languages, JSON-escaped. */
const UPLOAD_BYTES = 4 * 1024 * 1024;

const matches = (entry: GlossaryEntry, needle: string) =>
  [entry.term, ...Object.values(entry.translations)].some((text) => text.toLocaleLowerCase().includes(needle));

/**
 * The account's glossaries with the glossary service's rules and the public API's CSV reading,
 * so an upload is refused here exactly as POST /api/v1/glossaries would refuse it.
 */
@ApiTags('glossaries')
@SessionAuth()
@Roles('owner', 'member')
@Controller('console/api/glossaries')
export class ConsoleGlossariesController {
  constructor(private readonly glossaries: GlossaryService) {}

  @Get()
  @ApiOperation({ summary: "The mode's glossaries, without their entries" })
  @ApiOkResponse({ type: GlossaryPageResponseDto })
  async list(@CurrentUser() user: SignedIn, @Query() query: OffsetPageQueryDto): Promise<GlossaryPageResponseDto> {
    // At most 20 per mode (the service's limit): counting them all is cheap.
    const all = await this.glossaries.list(accountMode(user, query));
    const { offset, limit } = pageOf(query);
    return { ok: true, glossaries: all.slice(offset, offset + limit).map((glossary) => GlossarySummaryDto.from(glossary)), total: all.length };
  }

  @Post()
  @BodyLimit(UPLOAD_BYTES)
  @ApiOperation({ summary: 'Upload a CSV glossary', description: 'The file read as text, with the name and source language: the same rules and messages as a CSV upload to the public API.' })
  @ApiCreatedResponse({ type: GlossaryResponseDto })
  @ApiUnprocessableEntityResponse(INVALID)
  @ApiPayloadTooLargeResponse({ type: TranslationErrorDto, description: 'payload_too_large: more than 5,000 entries, or a body over 4 MiB' })
  async upload(@CurrentUser() user: SignedIn, @Query() query: ModeQueryDto, @Body() body: GlossaryCsvUploadDto): Promise<GlossaryResponseDto> {
    const glossary = await this.glossaries.create(accountMode(user, query), glossaryFromCsv(body.csv, body.name, body.source));
    return { ok: true, glossary: GlossarySummaryDto.from(glossary) };
  }

  @Get(':id')
  @ApiOperation({ summary: 'A glossary with a page of its entries, searched by term or translation' })
  @ApiParam(GLOSSARY_ID)
  @ApiOkResponse({ type: GlossaryEntriesResponseDto })
  @ApiNotFoundResponse(NOT_FOUND)
  async entries(@CurrentUser() user: SignedIn, @Param('id') id: string, @Query() query: GlossaryEntriesQueryDto): Promise<GlossaryEntriesResponseDto> {
    const glossary = await this.glossaries.get(accountMode(user, query), id);
    const needle = query.q?.trim().toLocaleLowerCase();
    const found = glossary.entries.map((entry, index) => ({ index, ...entry })).filter((entry) => !needle || matches(entry, needle));
    const { offset, limit } = pageOf(query);
    return { ok: true, glossary: GlossarySummaryDto.from(glossary), entries: found.slice(offset, offset + limit), total: found.length };
  }

  @Put(':id/entries/:index')
  @ApiOperation({
    summary: 'Change one entry',
    description: 'The glossary is replaced with the entry changed, under every rule of a whole upload; the next translation uses it.',
  })
  @ApiParam(GLOSSARY_ID)
  @ApiParam({ name: 'index', type: 'integer', description: 'The entry\'s `index`' })
  @ApiOkResponse({ type: GlossaryEntryResponseDto })
  @ApiNotFoundResponse({ type: TranslationErrorDto, description: 'not_found: no such glossary in this account and mode, or no entry at that index' })
  @ApiUnprocessableEntityResponse(INVALID)
  async editEntry(
    @CurrentUser() user: SignedIn,
    @Param('id') id: string,
    @Param('index') at: string,
    @Query() query: ModeQueryDto,
    @Body() body: GlossaryEntryInputDto,
  ): Promise<GlossaryEntryResponseDto> {
    const mode = accountMode(user, query);
    const glossary = await this.glossaries.get(mode, id);
    const index = /^\d{1,9}$/.test(at) ? Number(at) : -1;
    if (!(index in glossary.entries)) throw ApiError.notFound(`Glossary ${id} has no entry ${at}`);
    const entries = glossary.entries.map((entry, n) => (n === index ? { term: body.term, translations: body.translations } : entry));
    // Read as the public API reads a JSON upload: the translations' types are checked with their paths.
    const replaced = await this.glossaries.replace(mode, id, glossaryFromJson({ name: glossary.name, source: glossary.source, entries }));
    return { ok: true, glossary: GlossarySummaryDto.from(replaced), entry: { index, ...replaced.entries[index] } };
  }

  @Get(':id/csv')
  @Header('content-type', 'text/csv; charset=utf-8')
  @ApiOperation({ summary: 'Download a glossary as CSV', description: 'In the upload layout; cells that spreadsheets would run as formulas start with an apostrophe, which an upload takes off again.' })
  @ApiParam(GLOSSARY_ID)
  @ApiProduces('text/csv')
  @ApiOkResponse({ schema: { type: 'string', example: 'term,de,fr\r\ncloud,Wolke,nuage\r\n' } })
  @ApiNotFoundResponse(NOT_FOUND)
  async download(@CurrentUser() user: SignedIn, @Param('id') id: string, @Query() query: ModeQueryDto, @Res({ passthrough: true }) reply: FastifyReply): Promise<string> {
    const glossary = await this.glossaries.get(accountMode(user, query), id);
    reply.header('content-disposition', attachment(`${glossary.name}.csv`));
    return glossaryToCsv(glossary);
  }

  @Delete(':id')
  @ApiOperation({ summary: 'Delete a glossary', description: 'Translation requests naming it afterwards are refused.' })
  @ApiParam(GLOSSARY_ID)
  @ApiOkResponse({ type: GlossaryDeletedResponseDto })
  @ApiNotFoundResponse(NOT_FOUND)
  async delete(@CurrentUser() user: SignedIn, @Param('id') id: string, @Query() query: ModeQueryDto): Promise<GlossaryDeletedResponseDto> {
    await this.glossaries.delete(accountMode(user, query), id);
    return { ok: true };
  }
}
