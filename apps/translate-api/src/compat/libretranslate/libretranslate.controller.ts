import { Body, Controller, Get, HttpCode, Post, Res } from '@nestjs/common';
import { ApiOkResponse, ApiOperation, ApiTags } from '@nestjs/swagger';
import { ApiKeyAuth, ApiKeyInBody, CurrentApiKey, Public } from '@platform/auth';
import { EU_LANGUAGES, type ApiKeyPrincipal } from '@platform/contracts';
import { LanguageDetector } from '@platform/translation-pipeline';
import { Idempotent } from '../../idempotency/idempotent.decorator';
import { AvailablePairs, targetsBySource } from '../../languages/available-pairs.service';
import { englishLanguageName } from '../../languages/native-language-name';
import type { FastifyReply } from 'fastify';
import { sendEngines } from '../../translate/engine-header';
import { TranslateService } from '../../translate/translate.service';
import { MAX_CHARACTERS } from '../../translate/translate-limits';
import { AcceptsForm } from '../form-body';
import { DetectedLanguageDto, LIBRETRANSLATE_KEY_FIELDS, LibreTranslateDetectDto, LibreTranslateLanguageDto, LibreTranslateRequestDto, LibreTranslateResponseDto } from './dtos/libretranslate.dto';
import { DETECTED_CONFIDENCE, toLibreTranslateResponse, toTranslateRequest } from './libretranslate.mapper';


/** What a detection the detector is not sure of is reported as. */
const UNSURE_CONFIDENCE = 50;

/** LibreTranslate's API over our pipeline, quotas and keys. */
@ApiTags('LibreTranslate compatible')
@Controller()
export class LibreTranslateController {
  constructor(
    private readonly translator: TranslateService,
    private readonly pairs: AvailablePairs,
    private readonly detector: LanguageDetector,
  ) {}

  @Post('translate')
  @HttpCode(200)
  @ApiKeyAuth()
  @ApiKeyInBody(...LIBRETRANSLATE_KEY_FIELDS)
  @Idempotent()
  @AcceptsForm()
  @ApiOperation({ summary: 'Translate as LibreTranslate does', description: 'Billing, limits and errors of POST /api/v1/translate (tier basic), in LibreTranslate\'s shapes. See docs/api/libretranslate-compatible.md.' })
  @ApiOkResponse({ type: LibreTranslateResponseDto })
  async translate(@CurrentApiKey() key: ApiKeyPrincipal, @Body() body: LibreTranslateRequestDto, @Res({ passthrough: true }) reply: FastifyReply): Promise<LibreTranslateResponseDto> {
    const answer = await this.translator.translateNow(key, toTranslateRequest(body));
    sendEngines(reply, answer.engines);
    return toLibreTranslateResponse(body, answer);
  }

  @Get('languages')
  @Public()
  @ApiOperation({ summary: 'Languages and the targets each reaches, without a key as LibreTranslate answers' })
  @ApiOkResponse({ type: [LibreTranslateLanguageDto] })
  async languages(): Promise<LibreTranslateLanguageDto[]> {
    return [...targetsBySource(await this.pairs.list())].map(([code, targets]) => ({ code, name: englishLanguageName(code), targets }));
  }

  @Post('detect')
  @HttpCode(200)
  @ApiKeyAuth()
  @ApiKeyInBody(...LIBRETRANSLATE_KEY_FIELDS)
  @AcceptsForm()
  @ApiOperation({ summary: 'The language of a text; free of charge', description: `Confidence ${DETECTED_CONFIDENCE} when the text is long enough to be sure, ${UNSURE_CONFIDENCE} for a best guess, no entry when nothing can be told.` })
  @ApiOkResponse({ type: [DetectedLanguageDto] })
  async detect(@Body() body: LibreTranslateDetectDto): Promise<DetectedLanguageDto[]> {
    const sure = await this.detector.identify(body.q);
    if (sure) return [{ confidence: DETECTED_CONFIDENCE, language: sure }];
    const guess = await this.detector.detect(body.q, EU_LANGUAGES);
    return guess ? [{ confidence: UNSURE_CONFIDENCE, language: guess }] : [];
  }

  @Get('frontend/settings')
  @Public()
  @ApiOperation({ summary: "The settings LibreTranslate's own clients read before translating" })
  @ApiOkResponse({ schema: { type: 'object' } })
  settings() {
    return {
      charLimit: MAX_CHARACTERS,
      frontendTimeout: 500,
      apiKeys: true,
      keyRequired: true,
      suggestions: false,
      filesTranslation: false,
      supportedFilesFormat: [],
      language: { source: { code: 'auto', name: 'Auto Detect' }, target: { code: 'en', name: 'English' } },
    };
  }
}
