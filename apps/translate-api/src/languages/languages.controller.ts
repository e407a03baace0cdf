import { Controller, Get, Inject, Logger } from '@nestjs/common';
import { ApiOkResponse, ApiOperation, ApiServiceUnavailableResponse, ApiTags } from '@nestjs/swagger';
import { ApiKeyAuth } from '@platform/auth';
import { isEuLanguage } from '@platform/contracts';
import { ApiError, TranslationErrorDto } from '@platform/errors';
import { ApiRateLimited, RATE_LIMIT_HEADER_DOCS } from '@platform/quota';
import { ENGINE, EngineError, type LanguagePair, type TranslationEngine } from '@platform/translation-engines';
import { LanguageDto, LanguagesResponseDto } from './dtos/languages-response.dto';
import { nativeLanguageName } from './native-language-name';

function languages(codes: Iterable<string>): LanguageDto[] {
  return [...new Set(codes)].sort().map((code) => ({ code, name: nativeLanguageName(code) }));
}

@ApiTags('languages')
@ApiKeyAuth()
@Controller('api/v1/languages')
export class LanguagesController {
  private readonly logger = new Logger(LanguagesController.name);

  constructor(@Inject(ENGINE) private readonly engine: TranslationEngine) {}

  @Get()
  @ApiOperation({
    summary: 'Languages that can be translated now',
    description:
      'What the configured translation engine can do at this moment, within the 24 official EU languages. A language is a ' +
      'source when it can be translated into at least one other language and a target when at least one language can be ' +
      'translated into it; not every source reaches every target. Clients use this list instead of a fixed one.',
  })
  @ApiOkResponse({ type: LanguagesResponseDto, headers: RATE_LIMIT_HEADER_DOCS })
  @ApiServiceUnavailableResponse({ type: TranslationErrorDto, description: 'service_unavailable: the translation engine cannot be reached' })
  @ApiRateLimited(TranslationErrorDto)
  async list(): Promise<LanguagesResponseDto> {
    const pairs = (await this.pairs()).filter(({ source, target }) => source !== target && isEuLanguage(source) && isEuLanguage(target));
    return { ok: true, source: languages(pairs.map((p) => p.source)), target: languages(pairs.map((p) => p.target)) };
  }

  private async pairs(): Promise<LanguagePair[]> {
    try {
      return await this.engine.pairs();
    } catch (error) {
      if (!(error instanceof EngineError)) throw error;
      // The engine's own message may name internal hosts: it goes to the log, not to the client.
      this.logger.warn(`${this.engine.name} could not list its language pairs: ${error.message}`);
      throw ApiError.unavailable('The translation engine is unavailable; try again shortly');
    }
  }
}
