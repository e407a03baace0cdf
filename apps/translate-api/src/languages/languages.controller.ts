import { Controller, Get, Logger } from '@nestjs/common';
import { ApiOkResponse, ApiOperation, ApiServiceUnavailableResponse, ApiTags } from '@nestjs/swagger';
import { ApiKeyAuth } from '@platform/auth';
import { isEuLanguage } from '@platform/contracts';
import { ApiError, TranslationErrorDto } from '@platform/errors';
import { ApiRateLimited, RATE_LIMIT_HEADER_DOCS } from '@platform/quota';
import { EngineError, EngineRouter, type LanguagePair } from '@platform/translation-engines';
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

  constructor(private readonly engines: EngineRouter) {}

  @Get()
  @ApiOperation({
    summary: 'Languages that can be translated now',
    description:
      'What the configured translation engines can do together at this moment, within the 24 official EU languages. An engine ' +
      'that is down keeps counting with the pairs it offered when it last answered (a request for them gets 503 until it is ' +
      'back); a remote engine that gains or loses models shows the change within ENGINE_PAIRS_TTL_MS. A language is a ' +
      'source when it can be translated into at least one other language and a target when at least one language can be ' +
      'translated into it; not every source reaches every target. Clients use this list instead of a fixed one.',
  })
  @ApiOkResponse({ type: LanguagesResponseDto, headers: RATE_LIMIT_HEADER_DOCS })
  @ApiServiceUnavailableResponse({ type: TranslationErrorDto, description: 'service_unavailable: no engine offers any pair, and one could not be reached' })
  @ApiRateLimited(TranslationErrorDto)
  async list(): Promise<LanguagesResponseDto> {
    const pairs = (await this.pairs()).filter(({ source, target }) => source !== target && isEuLanguage(source) && isEuLanguage(target));
    return { ok: true, source: languages(pairs.map((p) => p.source)), target: languages(pairs.map((p) => p.target)) };
  }

  private async pairs(): Promise<LanguagePair[]> {
    try {
      return await this.engines.pairs();
    } catch (error) {
      if (!(error instanceof EngineError)) throw error;
      // The engine's own message may name internal hosts: it goes to the log, not to the client.
      this.logger.warn(`No engine could list its language pairs: ${error.message}`);
      throw ApiError.unavailable('The translation engine is unavailable; try again shortly');
    }
  }
}
