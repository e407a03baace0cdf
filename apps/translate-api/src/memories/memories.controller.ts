import { Body, Controller, Delete, Get, HttpCode, Param, Patch, Post, Query, StreamableFile } from '@nestjs/common';
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
  ApiUnsupportedMediaTypeResponse,
} from '@nestjs/swagger';
import { ApiKeyAuth, CurrentApiKey } from '@platform/auth';
import type { ApiKeyPrincipal } from '@platform/contracts';
import { TranslationErrorDto } from '@platform/errors';
import { ApiRateLimited, RATE_LIMIT_HEADER_DOCS } from '@platform/quota';
import {
  AcceptsMemoryFile,
  CreateMemoryDto,
  DEFAULT_ENTRY_PAGE,
  MAX_ENTRIES_PER_MEMORY,
  MAX_IMPORT_BYTES,
  MAX_MEMORIES_PER_ACCOUNT,
  MEMORY_FILE_TYPES,
  MemoryDeletedResponseDto,
  MemoryDto,
  MemoryEntryDto,
  MemoryEntryEditDto,
  MemoryEntryInputDto,
  MemoryEntryPageDto,
  MemoryEntryPageQueryDto,
  MemoryEntryResponseDto,
  memoryFileOf,
  TMX_MEDIA_TYPE,
  tmxDownload,
  MemoryImportQueryDto,
  MemoryImportResponseDto,
  MemoryListResponseDto,
  MemoryResponseDto,
  MemoryService,
  SuggestionDto,
  SuggestionsQueryDto,
  SuggestionsResponseDto,
  TranslationMemory,
} from '@platform/translation-memory';
import { Idempotent } from '../idempotency/idempotent.decorator';

const MEMORY_ID = { name: 'id', format: 'uuid', description: 'Memory id' };
const ENTRY_ID = { name: 'entryId', description: 'Entry id (digits)' };
const NOT_FOUND = { type: TranslationErrorDto, description: 'not_found: no such memory (or entry) in this account and mode (sandbox or live)' };
const INVALID = (what: string) => ({ type: TranslationErrorDto, description: `unsupported_language: ${what}` });
const TOO_MANY_ENTRIES = {
  type: TranslationErrorDto,
  description: `payload_too_large: the memory would hold more than ${MAX_ENTRIES_PER_MEMORY.toLocaleString('en')} entries (nothing was written)`,
};

@ApiTags('memories')
@ApiKeyAuth()
@ApiRateLimited(TranslationErrorDto)
@Controller('api/v1/memories')
export class MemoriesController {
  constructor(
    private readonly memories: MemoryService,
    private readonly memory: TranslationMemory,
  ) {}

  @Post()
  @Idempotent()
  @ApiOperation({
    summary: 'Create a translation memory',
    description: `It belongs to the mode of the key (sandbox or live). Each mode of an account holds at most ${MAX_MEMORIES_PER_ACCOUNT} memories, the \`default\` one (where reviewers' verdicts go, made on first use) included.`,
  })
  @ApiCreatedResponse({ type: MemoryResponseDto, headers: RATE_LIMIT_HEADER_DOCS })
  @ApiUnprocessableEntityResponse(INVALID(`an invalid name or source, the name \`default\`, or the account already holds ${MAX_MEMORIES_PER_ACCOUNT} memories in this mode`))
  async create(@CurrentApiKey() key: ApiKeyPrincipal, @Body() body: CreateMemoryDto): Promise<MemoryResponseDto> {
    const memory = await this.memories.create(key, { name: body.name.trim().normalize('NFC'), source: body.source });
    return { ok: true, memory: MemoryDto.from(memory) };
  }

  @Get()
  @ApiOperation({ summary: "List the account's memories", description: 'Those of the mode of the key, oldest first; the `default` memory is always among them.' })
  @ApiOkResponse({ type: MemoryListResponseDto, headers: RATE_LIMIT_HEADER_DOCS })
  async list(@CurrentApiKey() key: ApiKeyPrincipal): Promise<MemoryListResponseDto> {
    return { ok: true, memories: (await this.memories.list(key)).map((memory) => MemoryDto.from(memory)) };
  }

  @Get('suggestions')
  @ApiOperation({
    summary: 'Translations of similar texts from the memories',
    description:
      "From every memory of the account in the key's mode: first entries whose source is the same text (once whitespace, Unicode " +
      'normalisation and what the inline codes hold are set aside: `match: exact`, similarity 1), then entries whose source is similar, by trigram ' +
      'similarity (pg_trgm) of at least `min_similarity`, most similar first. Each says which memory, its origin and its provenance.',
  })
  @ApiOkResponse({ type: SuggestionsResponseDto, headers: RATE_LIMIT_HEADER_DOCS })
  @ApiUnprocessableEntityResponse(INVALID('a language outside the 24 official EU languages, an empty q, or limit or min_similarity out of range'))
  async suggestions(@CurrentApiKey() key: ApiKeyPrincipal, @Query() query: SuggestionsQueryDto): Promise<SuggestionsResponseDto> {
    const found = await this.memory.suggestions({
      accountId: key.accountId,
      sandbox: key.sandbox,
      source: query.source,
      target: query.target,
      q: query.q,
      limit: query.limit,
      minSimilarity: query.min_similarity,
    });
    return { ok: true, suggestions: found.map((suggestion) => SuggestionDto.from(suggestion)) };
  }

  @Get(':id')
  @ApiOperation({ summary: 'A memory', description: 'Its name, source language and number of entries; the entries are listed page by page under /entries.' })
  @ApiParam(MEMORY_ID)
  @ApiOkResponse({ type: MemoryResponseDto, headers: RATE_LIMIT_HEADER_DOCS })
  @ApiNotFoundResponse(NOT_FOUND)
  async get(@CurrentApiKey() key: ApiKeyPrincipal, @Param('id') id: string): Promise<MemoryResponseDto> {
    return { ok: true, memory: MemoryDto.from(await this.memories.get(key, id)) };
  }

  @Delete(':id')
  @ApiOperation({
    summary: 'Delete a memory with all its entries',
    description: 'At once, in one transaction. Deleting `default` empties it: it is made again, empty, on its next use.',
  })
  @ApiParam(MEMORY_ID)
  @ApiOkResponse({ type: MemoryDeletedResponseDto, headers: RATE_LIMIT_HEADER_DOCS })
  @ApiNotFoundResponse(NOT_FOUND)
  async delete(@CurrentApiKey() key: ApiKeyPrincipal, @Param('id') id: string): Promise<MemoryDeletedResponseDto> {
    await this.memories.delete(key, id);
    return { ok: true };
  }

  @Post(':id/import')
  @HttpCode(200)
  @AcceptsMemoryFile()
  @ApiOperation({
    summary: 'Import a TMX, XLIFF or PO file',
    description:
      'The file is the request body, with its media type (`application/x-tmx+xml`, `application/xliff+xml`, `text/x-gettext-translation`, ' +
      'or `application/xml`, `text/xml`, `application/octet-stream` with `?format=`). It is read whole before anything is written, and ' +
      'then imported in one transaction: a malformed file (422 naming the line or element) or one that would take the memory over ' +
      `${MAX_ENTRIES_PER_MEMORY.toLocaleString('en')} entries (413) changes nothing. An entry whose source the memory holds replaces its translation. ` +
      `At most ${MAX_IMPORT_BYTES / 1024 / 1024} MiB.`,
    requestBody: {
      required: true,
      description: 'The file as it is: TMX 1.4b, XLIFF 1.2 or 2.x, or PO, in UTF-8 (XML also in UTF-16 with its byte order mark)',
      content: Object.fromEntries(Object.keys(MEMORY_FILE_TYPES).map((type) => [type, { schema: { type: 'string', format: 'binary' } }])),
    },
  })
  @ApiParam(MEMORY_ID)
  @ApiOkResponse({ type: MemoryImportResponseDto, headers: RATE_LIMIT_HEADER_DOCS })
  @ApiNotFoundResponse(NOT_FOUND)
  @ApiUnprocessableEntityResponse(INVALID('the file is malformed (the message names the line or element) or its languages do not fit the memory'))
  @ApiPayloadTooLargeResponse({ type: TranslationErrorDto, description: `payload_too_large: a file over ${MAX_IMPORT_BYTES / 1024 / 1024} MiB, or more entries than a memory holds` })
  @ApiUnsupportedMediaTypeResponse({ type: TranslationErrorDto, description: `unsupported_media_type: not one of ${Object.keys(MEMORY_FILE_TYPES).join(', ')}` })
  async import(@CurrentApiKey() key: ApiKeyPrincipal, @Param('id') id: string, @Body() body: unknown, @Query() query: MemoryImportQueryDto): Promise<MemoryImportResponseDto> {
    const file = memoryFileOf(body, query.format);
    const summary = await this.memories.import(key, id, file.format, file.bytes, { source: query.source, target: query.target });
    return MemoryImportResponseDto.from(await this.memories.get(key, id), summary);
  }

  @Get(':id/export')
  @ApiOperation({ summary: 'The memory as TMX 1.4b', description: 'Every entry, with its codes as `<bpt>`/`<ept>` and `<ph>`; importing the file gives the same entries back.' })
  @ApiParam(MEMORY_ID)
  @ApiProduces(TMX_MEDIA_TYPE)
  @ApiOkResponse({ headers: RATE_LIMIT_HEADER_DOCS, content: { [TMX_MEDIA_TYPE]: { schema: { type: 'string', format: 'binary' } } } })
  @ApiNotFoundResponse(NOT_FOUND)
  async export(@CurrentApiKey() key: ApiKeyPrincipal, @Param('id') id: string): Promise<StreamableFile> {
    return tmxDownload(await this.memories.export(key, id));
  }

  @Get(':id/entries')
  @ApiOperation({ summary: "A page of the memory's entries", description: 'In the order they were first added; `q` keeps those whose source or translation contains it.' })
  @ApiParam(MEMORY_ID)
  @ApiOkResponse({ type: MemoryEntryPageDto, headers: RATE_LIMIT_HEADER_DOCS })
  @ApiNotFoundResponse(NOT_FOUND)
  @ApiUnprocessableEntityResponse(INVALID('limit out of range or a cursor this list did not give'))
  async entries(@CurrentApiKey() key: ApiKeyPrincipal, @Param('id') id: string, @Query() query: MemoryEntryPageQueryDto): Promise<MemoryEntryPageDto> {
    const limit = query.limit ?? DEFAULT_ENTRY_PAGE;
    const entries = await this.memories.entryPage(key, id, { after: query.cursor, limit, contains: query.q });
    return { ok: true, entries: entries.map((entry) => MemoryEntryDto.from(entry)), next_cursor: entries.length === limit ? entries.at(-1)!.id : null };
  }

  @Post(':id/entries')
  @ApiOperation({
    summary: 'Add a translation',
    description: "Plain text: variables and markup become inline codes, tied to the source's. An entry with the same source (once normalised) and languages is replaced.",
  })
  @ApiParam(MEMORY_ID)
  @ApiCreatedResponse({ type: MemoryEntryResponseDto, headers: RATE_LIMIT_HEADER_DOCS })
  @ApiNotFoundResponse(NOT_FOUND)
  @ApiUnprocessableEntityResponse(INVALID('an empty or overlong text, the same language twice, or a source language other than the memory\'s'))
  @ApiPayloadTooLargeResponse(TOO_MANY_ENTRIES)
  async addEntry(@CurrentApiKey() key: ApiKeyPrincipal, @Param('id') id: string, @Body() body: MemoryEntryInputDto): Promise<MemoryEntryResponseDto> {
    const entry = await this.memories.addEntry(key, id, { sourceLang: body.source_lang, targetLang: body.target_lang, source: body.source, target: body.target }, { key: key.keyId });
    return { ok: true, entry: MemoryEntryDto.from(entry) };
  }

  @Get(':id/entries/:entryId')
  @ApiOperation({ summary: 'An entry' })
  @ApiParam(MEMORY_ID)
  @ApiParam(ENTRY_ID)
  @ApiOkResponse({ type: MemoryEntryResponseDto, headers: RATE_LIMIT_HEADER_DOCS })
  @ApiNotFoundResponse(NOT_FOUND)
  async entry(@CurrentApiKey() key: ApiKeyPrincipal, @Param('id') id: string, @Param('entryId') entryId: string): Promise<MemoryEntryResponseDto> {
    return { ok: true, entry: MemoryEntryDto.from(await this.memories.entry(key, id, entryId)) };
  }

  @Patch(':id/entries/:entryId')
  @ApiOperation({
    summary: 'Change an entry',
    description: 'Its source, its translation or both, as plain text; the side not given stays as it is. Another entry that had the new source gives way.',
  })
  @ApiParam(MEMORY_ID)
  @ApiParam(ENTRY_ID)
  @ApiOkResponse({ type: MemoryEntryResponseDto, headers: RATE_LIMIT_HEADER_DOCS })
  @ApiNotFoundResponse(NOT_FOUND)
  @ApiUnprocessableEntityResponse(INVALID('neither source nor target given, or an empty or overlong text'))
  async editEntry(
    @CurrentApiKey() key: ApiKeyPrincipal,
    @Param('id') id: string,
    @Param('entryId') entryId: string,
    @Body() body: MemoryEntryEditDto,
  ): Promise<MemoryEntryResponseDto> {
    const entry = await this.memories.editEntry(key, id, entryId, body, { key: key.keyId });
    return { ok: true, entry: MemoryEntryDto.from(entry) };
  }

  @Delete(':id/entries/:entryId')
  @ApiOperation({ summary: 'Delete an entry' })
  @ApiParam(MEMORY_ID)
  @ApiParam(ENTRY_ID)
  @ApiOkResponse({ type: MemoryDeletedResponseDto, headers: RATE_LIMIT_HEADER_DOCS })
  @ApiNotFoundResponse(NOT_FOUND)
  async deleteEntry(@CurrentApiKey() key: ApiKeyPrincipal, @Param('id') id: string, @Param('entryId') entryId: string): Promise<MemoryDeletedResponseDto> {
    await this.memories.deleteEntry(key, id, entryId);
    return { ok: true };
  }
}
