import { Body, Controller, Delete, Get, HttpCode, Param, Post, Res } from '@nestjs/common';
import { ApiCreatedResponse, ApiNoContentResponse, ApiOkResponse, ApiOperation, ApiProduces, ApiTags } from '@nestjs/swagger';
import { ApiKeyAuth, CurrentApiKey } from '@platform/auth';
import type { ApiKeyPrincipal } from '@platform/contracts';
import { GlossaryService } from '@platform/glossaries';
import type { FastifyReply } from 'fastify';
import { Idempotent } from '../../idempotency/idempotent.decorator';
import { AcceptsForm } from '../form-body';
import { DEEPL_TAG } from './deepl.controller';
import { draftFromEntries, entriesAsTsv, toDeepLGlossary } from './deepl-glossary.mapper';
import { fromDeepLCode } from './deepl-language';
import { CreateDeepLGlossaryDto, DeepLGlossaryDto, DeepLGlossaryListDto } from './dtos/deepl-glossary.dto';

/** DeepL's /v2/glossaries over our glossaries of the key's mode: one source and one target each. */
@ApiTags(DEEPL_TAG)
@ApiKeyAuth()
@Controller('v2/glossaries')
export class DeepLGlossariesController {
  constructor(private readonly glossaries: GlossaryService) {}

  @Post()
  @Idempotent()
  @AcceptsForm()
  @ApiOperation({ summary: 'Create a glossary from TSV or CSV entries' })
  @ApiCreatedResponse({ type: DeepLGlossaryDto })
  async create(@CurrentApiKey() key: ApiKeyPrincipal, @Body() body: CreateDeepLGlossaryDto): Promise<DeepLGlossaryDto> {
    const source = fromDeepLCode('source_lang', body.source_lang);
    const target = fromDeepLCode('target_lang', body.target_lang);
    return toDeepLGlossary(await this.glossaries.create(key, draftFromEntries(body.name, source, target, body.entries, body.entries_format ?? 'tsv')));
  }

  @Get()
  @ApiOperation({ summary: "The key's glossaries" })
  @ApiOkResponse({ type: DeepLGlossaryListDto })
  async list(@CurrentApiKey() key: ApiKeyPrincipal): Promise<DeepLGlossaryListDto> {
    return { glossaries: (await this.glossaries.list(key)).map(toDeepLGlossary) };
  }

  @Get(':id')
  @ApiOperation({ summary: 'One glossary, without its entries' })
  @ApiOkResponse({ type: DeepLGlossaryDto })
  async get(@CurrentApiKey() key: ApiKeyPrincipal, @Param('id') id: string): Promise<DeepLGlossaryDto> {
    return toDeepLGlossary(await this.glossaries.get(key, id));
  }

  @Get(':id/entries')
  @ApiOperation({ summary: "A glossary's entries as TSV" })
  @ApiProduces('text/tab-separated-values')
  @ApiOkResponse({ schema: { type: 'string', example: 'sofa\tDiwan' } })
  async entries(@CurrentApiKey() key: ApiKeyPrincipal, @Param('id') id: string, @Res({ passthrough: true }) reply: FastifyReply): Promise<string> {
    const glossary = await this.glossaries.get(key, id);
    reply.type('text/tab-separated-values; charset=utf-8');
    return entriesAsTsv(glossary);
  }

  @Delete(':id')
  @HttpCode(204)
  @ApiOperation({ summary: 'Delete a glossary' })
  @ApiNoContentResponse()
  async delete(@CurrentApiKey() key: ApiKeyPrincipal, @Param('id') id: string): Promise<void> {
    await this.glossaries.delete(key, id);
  }
}
