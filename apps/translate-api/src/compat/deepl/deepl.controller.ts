import { Body, Controller, Get, HttpCode, Post, Query, Res } from '@nestjs/common';
import { ApiOkResponse, ApiOperation, ApiTags } from '@nestjs/swagger';
import { ApiKeyAuth, CurrentApiKey } from '@platform/auth';
import type { ApiKeyPrincipal } from '@platform/contracts';
import { Idempotent } from '../../idempotency/idempotent.decorator';
import { AvailablePairs } from '../../languages/available-pairs.service';
import { englishLanguageName } from '../../languages/native-language-name';
import type { FastifyReply } from 'fastify';
import { sendEngines } from '../../translate/engine-header';
import { TranslateService } from '../../translate/translate.service';
import { MonthUsage } from '../../usage/month-usage.service';
import { AcceptsForm } from '../form-body';
import { toDeepLCode } from './deepl-language';
import { CHARACTERS_PER_WORD, toDeepLTranslations, toTranslateRequest } from './deepl-translate.mapper';
import { DeepLLanguageDto, DeepLLanguagesQueryDto, DeepLUsageDto } from './dtos/deepl-language.dto';
import { DeepLTranslateDto } from './dtos/deepl-translate.dto';
import { DeepLTranslateResponseDto } from './dtos/deepl-translate-response.dto';

export const DEEPL_TAG = 'DeepL compatible';

/** What DeepL answers for an unlimited account's character_limit. */
const UNLIMITED_CHARACTERS = 1_000_000_000_000;

const VARIANT_NAMES: Record<string, string> = { 'EN-GB': 'English (British)', 'PT-PT': 'Portuguese (European)' };

/** DeepL's API v2 over our pipeline, quotas and keys: translate, languages and usage. */
@ApiTags(DEEPL_TAG)
@ApiKeyAuth()
@Controller('v2')
export class DeepLController {
  constructor(
    private readonly translator: TranslateService,
    private readonly pairs: AvailablePairs,
    private readonly monthUsage: MonthUsage,
  ) {}

  @Post('translate')
  @HttpCode(200)
  @Idempotent()
  @AcceptsForm()
  @ApiOperation({ summary: 'Translate texts as DeepL does', description: 'Billing, limits and errors of POST /api/v1/translate (tier basic; pro with a glossary), in DeepL\'s shapes. See docs/api/deepl-compatible.md.' })
  @ApiOkResponse({ type: DeepLTranslateResponseDto })
  async translate(@CurrentApiKey() key: ApiKeyPrincipal, @Body() body: DeepLTranslateDto, @Res({ passthrough: true }) reply: FastifyReply): Promise<DeepLTranslateResponseDto> {
    const answer = await this.translator.translateNow(key, toTranslateRequest(body));
    sendEngines(reply, answer.engines);
    return toDeepLTranslations(answer);
  }

  @Get('languages')
  @ApiOperation({ summary: 'Source or target languages, as DeepL lists them' })
  @ApiOkResponse({ type: [DeepLLanguageDto] })
  languages(@Query() query: DeepLLanguagesQueryDto): Promise<DeepLLanguageDto[]> {
    return this.list(query.type ?? 'source');
  }

  @Post('languages')
  @HttpCode(200)
  @AcceptsForm()
  @ApiOperation({ summary: 'Source or target languages, as DeepL lists them (type in the body)' })
  @ApiOkResponse({ type: [DeepLLanguageDto] })
  languagesByPost(@Query() query: DeepLLanguagesQueryDto, @Body() body: DeepLLanguagesQueryDto = {}): Promise<DeepLLanguageDto[]> {
    return this.list(body.type ?? query.type ?? 'source');
  }

  @Get('usage')
  @ApiOperation({ summary: "The key's usage this month in DeepL's characters, with our words" })
  @ApiOkResponse({ type: DeepLUsageDto })
  async usage(@CurrentApiKey() key: ApiKeyPrincipal): Promise<DeepLUsageDto> {
    const { words, limit } = await this.monthUsage.of(key);
    return {
      character_count: words * CHARACTERS_PER_WORD,
      character_limit: limit === null ? UNLIMITED_CHARACTERS : limit * CHARACTERS_PER_WORD,
      words,
      word_limit: limit,
    };
  }

  private async list(type: 'source' | 'target'): Promise<DeepLLanguageDto[]> {
    const [pairs, formal] = await Promise.all([this.pairs.list(), type === 'target' ? this.pairs.formalityTargets() : new Set<string>()]);
    const codes = new Set(pairs.map((pair) => pair[type]));
    return [...codes].sort().map((code) => {
      const language = toDeepLCode(code, type);
      const name = VARIANT_NAMES[language] ?? englishLanguageName(code);
      return type === 'target' ? { language, name, supports_formality: formal.has(code) } : { language, name };
    });
  }
}
