import { Body, Controller, Delete, Get, Param, Post, Put } from '@nestjs/common';
import {
  ApiCreatedResponse,
  ApiExtraModels,
  ApiNotFoundResponse,
  ApiOkResponse,
  ApiOperation,
  ApiParam,
  ApiPayloadTooLargeResponse,
  ApiTags,
  ApiUnprocessableEntityResponse,
} from '@nestjs/swagger';
import { ApiKeyAuth, CurrentApiKey } from '@platform/auth';
import type { ApiKeyPrincipal } from '@platform/contracts';
import { TranslationErrorDto } from '@platform/errors';
import { ApiRateLimited, RATE_LIMIT_HEADER_DOCS } from '@platform/quota';
import {
  DoNotTranslateTermDto,
  MAX_DO_NOT_TRANSLATE_TERMS,
  MAX_STYLE_PROFILES_PER_ACCOUNT,
  StyleProfileDeletedResponseDto,
  StyleProfileInputDto,
  StyleProfileListResponseDto,
  StyleProfileResponseDto,
  StyleProfileService,
} from '@platform/style-profiles';
import { Idempotent } from '../idempotency/idempotent.decorator';

const PROFILE_ID = { name: 'id', format: 'uuid', description: 'Style profile id' };
const NOT_FOUND = { type: TranslationErrorDto, description: 'not_found: no such style profile in this account and mode (sandbox or live)' };
const INVALID = {
  type: TranslationErrorDto,
  description:
    'unsupported_language: the profile is invalid (an unknown typography rule, an empty or repeated term or one with a control character such as NUL, ' +
    `a glossary or memory that is not the mode's own, ...) or, on creation, the account already holds ${MAX_STYLE_PROFILES_PER_ACCOUNT} profiles in this mode`,
};
const TOO_LARGE = { type: TranslationErrorDto, description: `payload_too_large: more than ${MAX_DO_NOT_TRANSLATE_TERMS.toLocaleString('en')} do-not-translate terms` };

@ApiTags('style profiles')
@ApiKeyAuth()
@ApiRateLimited(TranslationErrorDto)
@ApiExtraModels(DoNotTranslateTermDto)
@Controller('api/v1/style-profiles')
export class StyleProfilesController {
  constructor(private readonly profiles: StyleProfileService) {}

  @Post()
  @Idempotent()
  @ApiOperation({
    summary: 'Create a style profile',
    description: `It belongs to the mode of the key (sandbox or live). Each mode of an account holds at most ${MAX_STYLE_PROFILES_PER_ACCOUNT} profiles.`,
  })
  @ApiCreatedResponse({ type: StyleProfileResponseDto, headers: RATE_LIMIT_HEADER_DOCS })
  @ApiUnprocessableEntityResponse(INVALID)
  @ApiPayloadTooLargeResponse(TOO_LARGE)
  async create(@CurrentApiKey() key: ApiKeyPrincipal, @Body() body: StyleProfileInputDto): Promise<StyleProfileResponseDto> {
    return StyleProfileResponseDto.of(await this.profiles.create(key, body));
  }

  @Get()
  @ApiOperation({ summary: "List the account's style profiles", description: 'Those of the mode of the key (sandbox or live), oldest first.' })
  @ApiOkResponse({ type: StyleProfileListResponseDto, headers: RATE_LIMIT_HEADER_DOCS })
  async list(@CurrentApiKey() key: ApiKeyPrincipal): Promise<StyleProfileListResponseDto> {
    return StyleProfileListResponseDto.of(await this.profiles.list(key));
  }

  @Get(':id')
  @ApiOperation({ summary: 'A style profile' })
  @ApiParam(PROFILE_ID)
  @ApiOkResponse({ type: StyleProfileResponseDto, headers: RATE_LIMIT_HEADER_DOCS })
  @ApiNotFoundResponse(NOT_FOUND)
  async get(@CurrentApiKey() key: ApiKeyPrincipal, @Param('id') id: string): Promise<StyleProfileResponseDto> {
    return StyleProfileResponseDto.of(await this.profiles.get(key, id));
  }

  @Put(':id')
  @ApiOperation({ summary: 'Replace a style profile', description: 'Every field at once, as in creation (a field left out takes its default); the id stays. The next request uses it.' })
  @ApiParam(PROFILE_ID)
  @ApiOkResponse({ type: StyleProfileResponseDto, headers: RATE_LIMIT_HEADER_DOCS })
  @ApiNotFoundResponse(NOT_FOUND)
  @ApiUnprocessableEntityResponse(INVALID)
  @ApiPayloadTooLargeResponse(TOO_LARGE)
  async replace(@CurrentApiKey() key: ApiKeyPrincipal, @Param('id') id: string, @Body() body: StyleProfileInputDto): Promise<StyleProfileResponseDto> {
    return StyleProfileResponseDto.of(await this.profiles.replace(key, id, body));
  }

  @Delete(':id')
  @ApiOperation({ summary: 'Delete a style profile', description: 'Requests naming it afterwards are refused with 404; batches accepted with it keep their copy.' })
  @ApiParam(PROFILE_ID)
  @ApiOkResponse({ type: StyleProfileDeletedResponseDto, headers: RATE_LIMIT_HEADER_DOCS })
  @ApiNotFoundResponse(NOT_FOUND)
  async delete(@CurrentApiKey() key: ApiKeyPrincipal, @Param('id') id: string): Promise<StyleProfileDeletedResponseDto> {
    await this.profiles.delete(key, id);
    return { ok: true };
  }
}
