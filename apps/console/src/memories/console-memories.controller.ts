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
import { TranslationErrorDto } from '@platform/errors';
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
  MemoryEntryResponseDto,
  memoryFileOf,
  TMX_MEDIA_TYPE,
  tmxDownload,
  MemoryImportResponseDto,
  MemoryResponseDto,
  MemoryService,
} from '@platform/translation-memory';
import { accountMode, ModeQueryDto } from '../account-mode/mode-query.dto';
import { SessionAuth } from '../sessions/session-auth.decorator';
import { CurrentUser, Roles } from '../sessions/session.guard';
import type { SignedIn } from '../sessions/sessions.service';
import { ConsoleMemoryEntriesQueryDto, ConsoleMemoryEntriesResponseDto, ConsoleMemoryImportQueryDto, ConsoleMemoryListResponseDto, MemoryLimitsDto } from './dtos/console-memory.dto';

const MEMORY_ID = { name: 'id', format: 'uuid', description: 'Memory id' };
const ENTRY_ID = { name: 'entryId', description: 'Entry id (digits)' };
const NOT_FOUND = { type: TranslationErrorDto, description: 'not_found: no such memory (or entry) in this account and mode' };
const MIB = 1024 * 1024;

/**
 * The account's translation memories with the memory service's rules, so the console refuses
 * and imports exactly as /api/v1/memories does; entries edited here name the user who did.
 */
@ApiTags('memories')
@SessionAuth()
@Roles('owner', 'member')
@Controller('console/api/memories')
export class ConsoleMemoriesController {
  constructor(private readonly memories: MemoryService) {}

  @Get()
  @ApiOperation({ summary: "The mode's memories and the limits they live within", description: 'The `default` memory (where reviewers\u2019 verdicts go) is always listed, made on first use.' })
  @ApiOkResponse({ type: ConsoleMemoryListResponseDto })
  async list(@CurrentUser() user: SignedIn, @Query() query: ModeQueryDto): Promise<ConsoleMemoryListResponseDto> {
    const memories = await this.memories.list(accountMode(user, query));
    return { ok: true, memories: memories.map((memory) => MemoryDto.from(memory)), limits: MemoryLimitsDto.current };
  }

  @Post()
  @ApiOperation({ summary: 'Create a memory', description: `A mode holds at most ${MAX_MEMORIES_PER_ACCOUNT} memories, the default one included.` })
  @ApiCreatedResponse({ type: MemoryResponseDto })
  @ApiUnprocessableEntityResponse({
    type: TranslationErrorDto,
    description: `invalid_request: an empty or overlong name, the name \`default\`, a source outside the 24 official EU languages, or the mode already holds ${MAX_MEMORIES_PER_ACCOUNT} memories`,
  })
  async create(@CurrentUser() user: SignedIn, @Query() query: ModeQueryDto, @Body() body: CreateMemoryDto): Promise<MemoryResponseDto> {
    const memory = await this.memories.create(accountMode(user, query), { name: body.name.trim().normalize('NFC'), source: body.source });
    return { ok: true, memory: MemoryDto.from(memory) };
  }

  @Get(':id')
  @ApiOperation({ summary: 'A memory with a page of its entries', description: '`q` keeps the entries whose source or translation contains it, ignoring case.' })
  @ApiParam(MEMORY_ID)
  @ApiOkResponse({ type: ConsoleMemoryEntriesResponseDto })
  @ApiNotFoundResponse(NOT_FOUND)
  @ApiUnprocessableEntityResponse({ type: TranslationErrorDto, description: 'invalid_request: limit out of range, a cursor this list did not give, or a q no entry can hold' })
  async entries(@CurrentUser() user: SignedIn, @Param('id') id: string, @Query() query: ConsoleMemoryEntriesQueryDto): Promise<ConsoleMemoryEntriesResponseDto> {
    const mode = accountMode(user, query);
    const limit = query.limit ?? DEFAULT_ENTRY_PAGE;
    const entries = await this.memories.entryPage(mode, id, { after: query.cursor, limit, contains: query.q?.trim() || undefined });
    return {
      ok: true,
      memory: MemoryDto.from(await this.memories.get(mode, id)),
      entries: entries.map((entry) => MemoryEntryDto.from(entry)),
      next_cursor: entries.length === limit ? entries.at(-1)!.id : null,
      limits: MemoryLimitsDto.current,
    };
  }

  @Delete(':id')
  @ApiOperation({ summary: 'Delete a memory with all its entries', description: 'Deleting `default` empties it: it is made again, empty, on its next use.' })
  @ApiParam(MEMORY_ID)
  @ApiOkResponse({ type: MemoryDeletedResponseDto })
  @ApiNotFoundResponse(NOT_FOUND)
  async delete(@CurrentUser() user: SignedIn, @Param('id') id: string, @Query() query: ModeQueryDto): Promise<MemoryDeletedResponseDto> {
    await this.memories.delete(accountMode(user, query), id);
    return { ok: true };
  }

  @Post(':id/import')
  @HttpCode(200)
  @AcceptsMemoryFile()
  @ApiOperation({
    summary: 'Import a TMX, XLIFF or PO file',
    description:
      'The file is the request body with its media type, as for POST /api/v1/memories/{id}/import: read whole first, then imported in one ' +
      `transaction, so a malformed file or one that would take the memory over ${MAX_ENTRIES_PER_MEMORY.toLocaleString('en')} entries changes nothing.`,
    requestBody: {
      required: true,
      description: 'The file as it is: TMX 1.4b, XLIFF 1.2 or 2.x, or PO',
      content: Object.fromEntries(Object.keys(MEMORY_FILE_TYPES).map((type) => [type, { schema: { type: 'string', format: 'binary' } }])),
    },
  })
  @ApiParam(MEMORY_ID)
  @ApiOkResponse({ type: MemoryImportResponseDto })
  @ApiNotFoundResponse(NOT_FOUND)
  @ApiUnprocessableEntityResponse({
    type: TranslationErrorDto,
    description: 'invalid_request: the file is malformed (the message names the line or element), its languages do not fit the memory, or its format is not said',
  })
  @ApiPayloadTooLargeResponse({ type: TranslationErrorDto, description: `payload_too_large: a file over ${MAX_IMPORT_BYTES / MIB} MiB, or more entries than a memory holds` })
  @ApiUnsupportedMediaTypeResponse({ type: TranslationErrorDto, description: `unsupported_media_type: not one of ${Object.keys(MEMORY_FILE_TYPES).join(', ')}` })
  async import(@CurrentUser() user: SignedIn, @Param('id') id: string, @Body() body: unknown, @Query() query: ConsoleMemoryImportQueryDto): Promise<MemoryImportResponseDto> {
    const mode = accountMode(user, query);
    const file = memoryFileOf(body, query.format);
    const summary = await this.memories.import(mode, id, file.format, file.bytes, { source: query.source, target: query.target });
    return MemoryImportResponseDto.from(await this.memories.get(mode, id), summary);
  }

  @Get(':id/export')
  @ApiOperation({ summary: 'Download the memory as TMX 1.4b', description: 'Every entry; importing the file gives the same entries back.' })
  @ApiParam(MEMORY_ID)
  @ApiProduces(TMX_MEDIA_TYPE)
  @ApiOkResponse({ content: { [TMX_MEDIA_TYPE]: { schema: { type: 'string', format: 'binary' } } } })
  @ApiNotFoundResponse(NOT_FOUND)
  async export(@CurrentUser() user: SignedIn, @Param('id') id: string, @Query() query: ModeQueryDto): Promise<StreamableFile> {
    return tmxDownload(await this.memories.export(accountMode(user, query), id));
  }

  @Patch(':id/entries/:entryId')
  @ApiOperation({
    summary: 'Change an entry',
    description: 'Its source, its translation or both, as plain text; the side not given stays. Another entry that had the new source gives way.',
  })
  @ApiParam(MEMORY_ID)
  @ApiParam(ENTRY_ID)
  @ApiOkResponse({ type: MemoryEntryResponseDto })
  @ApiNotFoundResponse(NOT_FOUND)
  @ApiUnprocessableEntityResponse({ type: TranslationErrorDto, description: 'invalid_request: neither source nor target given, or an empty or overlong text' })
  async editEntry(
    @CurrentUser() user: SignedIn,
    @Param('id') id: string,
    @Param('entryId') entryId: string,
    @Query() query: ModeQueryDto,
    @Body() body: MemoryEntryEditDto,
  ): Promise<MemoryEntryResponseDto> {
    const entry = await this.memories.editEntry(accountMode(user, query), id, entryId, body, { user: user.userId });
    return { ok: true, entry: MemoryEntryDto.from(entry) };
  }

  @Delete(':id/entries/:entryId')
  @ApiOperation({ summary: 'Delete an entry' })
  @ApiParam(MEMORY_ID)
  @ApiParam(ENTRY_ID)
  @ApiOkResponse({ type: MemoryDeletedResponseDto })
  @ApiNotFoundResponse(NOT_FOUND)
  async deleteEntry(@CurrentUser() user: SignedIn, @Param('id') id: string, @Param('entryId') entryId: string, @Query() query: ModeQueryDto): Promise<MemoryDeletedResponseDto> {
    await this.memories.deleteEntry(accountMode(user, query), id, entryId);
    return { ok: true };
  }
}
