import { Body, Controller, Delete, Get, Param, Post, Put, Query } from '@nestjs/common';
import { ApiCreatedResponse, ApiExtraModels, ApiNotFoundResponse, ApiOkResponse, ApiOperation, ApiParam, ApiPayloadTooLargeResponse, ApiTags, ApiUnprocessableEntityResponse } from '@nestjs/swagger';
import { TranslationErrorDto } from '@platform/errors';
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
import { accountMode, ModeQueryDto } from '../account-mode/mode-query.dto';
import { SessionAuth } from '../sessions/session-auth.decorator';
import { CurrentUser, Roles } from '../sessions/session.guard';
import type { SignedIn } from '../sessions/sessions.service';

const PROFILE_ID = { name: 'id', format: 'uuid', description: 'Style profile id' };
const NOT_FOUND = { type: TranslationErrorDto, description: 'not_found: no such style profile in this account and mode' };
const INVALID = {
  type: TranslationErrorDto,
  description:
    'invalid_request: the profile breaks a rule of the public API (an unknown typography rule, an empty or repeated term or one with a control ' +
    `character, a glossary or memory of another mode) or the mode already holds ${MAX_STYLE_PROFILES_PER_ACCOUNT} profiles`,
};
const TOO_LARGE = { type: TranslationErrorDto, description: `payload_too_large: more than ${MAX_DO_NOT_TRANSLATE_TERMS} do-not-translate terms` };

/** The account's style profiles through the style profile service, with the public API's body and rules. */
@ApiTags('style profiles')
@SessionAuth()
@Roles('owner', 'member')
@ApiExtraModels(DoNotTranslateTermDto)
@Controller('console/api/style-profiles')
export class ConsoleStyleProfilesController {
  constructor(private readonly profiles: StyleProfileService) {}

  @Get()
  @ApiOperation({ summary: "The mode's style profiles, oldest first" })
  @ApiOkResponse({ type: StyleProfileListResponseDto })
  async list(@CurrentUser() user: SignedIn, @Query() query: ModeQueryDto): Promise<StyleProfileListResponseDto> {
    return StyleProfileListResponseDto.of(await this.profiles.list(accountMode(user, query)));
  }

  @Post()
  @ApiOperation({ summary: 'Create a style profile' })
  @ApiCreatedResponse({ type: StyleProfileResponseDto })
  @ApiUnprocessableEntityResponse(INVALID)
  @ApiPayloadTooLargeResponse(TOO_LARGE)
  async create(@CurrentUser() user: SignedIn, @Query() query: ModeQueryDto, @Body() body: StyleProfileInputDto): Promise<StyleProfileResponseDto> {
    return StyleProfileResponseDto.of(await this.profiles.create(accountMode(user, query), body));
  }

  @Get(':id')
  @ApiOperation({ summary: 'A style profile' })
  @ApiParam(PROFILE_ID)
  @ApiOkResponse({ type: StyleProfileResponseDto })
  @ApiNotFoundResponse(NOT_FOUND)
  async get(@CurrentUser() user: SignedIn, @Param('id') id: string, @Query() query: ModeQueryDto): Promise<StyleProfileResponseDto> {
    return StyleProfileResponseDto.of(await this.profiles.get(accountMode(user, query), id));
  }

  @Put(':id')
  @ApiOperation({ summary: 'Replace a style profile', description: 'Every field at once; the next translation uses it.' })
  @ApiParam(PROFILE_ID)
  @ApiOkResponse({ type: StyleProfileResponseDto })
  @ApiNotFoundResponse(NOT_FOUND)
  @ApiUnprocessableEntityResponse(INVALID)
  @ApiPayloadTooLargeResponse(TOO_LARGE)
  async replace(@CurrentUser() user: SignedIn, @Param('id') id: string, @Query() query: ModeQueryDto, @Body() body: StyleProfileInputDto): Promise<StyleProfileResponseDto> {
    return StyleProfileResponseDto.of(await this.profiles.replace(accountMode(user, query), id, body));
  }

  @Delete(':id')
  @ApiOperation({ summary: 'Delete a style profile', description: 'Translation requests naming it afterwards are refused; batches accepted with it keep their copy.' })
  @ApiParam(PROFILE_ID)
  @ApiOkResponse({ type: StyleProfileDeletedResponseDto })
  @ApiNotFoundResponse(NOT_FOUND)
  async delete(@CurrentUser() user: SignedIn, @Param('id') id: string, @Query() query: ModeQueryDto): Promise<StyleProfileDeletedResponseDto> {
    await this.profiles.delete(accountMode(user, query), id);
    return { ok: true };
  }
}
