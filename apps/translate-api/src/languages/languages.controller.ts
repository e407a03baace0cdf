import { Controller, Get } from '@nestjs/common';
import { ApiOkResponse, ApiOperation, ApiServiceUnavailableResponse, ApiTags } from '@nestjs/swagger';
import { ApiKeyAuth } from '@platform/auth';
import { TranslationErrorDto } from '@platform/errors';
import { ApiRateLimited, RATE_LIMIT_HEADER_DOCS } from '@platform/quota';
import { AvailablePairs, targetsBySource } from './available-pairs.service';
import { LanguageDto, LanguagesResponseDto } from './dtos/languages-response.dto';
import { nativeLanguageName } from './native-language-name';

const language = (code: string): LanguageDto => ({ code, name: nativeLanguageName(code) });

@ApiTags('languages')
@ApiKeyAuth()
@Controller('api/v1/languages')
export class LanguagesController {
  constructor(private readonly pairs: AvailablePairs) {}

  @Get()
  @ApiOperation({
    summary: 'Languages that can be translated now',
    description:
      'What the configured translation engines can do together at this moment, within the 24 official EU languages. An engine ' +
      'that is down keeps counting with the pairs it offered when it last answered (a request for them gets 503 until it is ' +
      'back); a remote engine that gains or loses models shows the change within ENGINE_PAIRS_TTL_MS. A language is a ' +
      'source when it can be translated into at least one other language and a target when at least one language can be ' +
      'translated into it; not every source reaches every target, so each source lists the targets it reaches (`targets`), ' +
      'the same as the LibreTranslate-compatible GET /languages. Clients use this list instead of a fixed one, and offer ' +
      'a source only the targets it lists: any other pair is refused with 422.',
  })
  @ApiOkResponse({ type: LanguagesResponseDto, headers: RATE_LIMIT_HEADER_DOCS })
  @ApiServiceUnavailableResponse({ type: TranslationErrorDto, description: 'service_unavailable: no engine offers any pair, and one could not be reached' })
  @ApiRateLimited(TranslationErrorDto)
  async list(): Promise<LanguagesResponseDto> {
    const pairs = await this.pairs.list();
    const source = [...targetsBySource(pairs)].map(([code, targets]) => ({ ...language(code), targets }));
    const target = [...new Set(pairs.map((pair) => pair.target))].sort().map(language);
    return { ok: true, source, target };
  }
}
