import { Body, Controller, Delete, Get, HttpCode, Param, Patch, Post } from '@nestjs/common';
import {
  ApiBody,
  ApiCreatedResponse,
  ApiForbiddenResponse,
  ApiNotFoundResponse,
  ApiOkResponse,
  ApiOperation,
  ApiParam,
  ApiTags,
  ApiUnprocessableEntityResponse,
} from '@nestjs/swagger';
import {
  ApiKeyAuth,
  ApiKeyService,
  CreateKeyDto,
  CurrentApiKey,
  IssuedKeyResponseDto,
  KeyLimitsDto,
  KeyListResponseDto,
  KeyResponseDto,
  KeyViewDto,
  keyOwnerOf,
  RequireScope,
  type IssuedApiKey,
} from '@platform/auth';
import { TranslationErrorCode, type ApiKeyPrincipal } from '@platform/contracts';
import { ApiError, TranslationErrorDto } from '@platform/errors';

const KEY_ID = { name: 'id', format: 'uuid', description: 'Key id (not the secret)' };

function issued({ key, secret }: IssuedApiKey): IssuedKeyResponseDto {
  return { ok: true, key: KeyViewDto.from(key), secret };
}

@ApiTags('keys')
@ApiKeyAuth()
@RequireScope('manage')
@Controller('api/v1/keys')
export class KeysController {
  constructor(private readonly keys: ApiKeyService) {}

  @Get()
  @ApiOperation({ summary: "List the account's keys", description: 'A sandbox key sees only the sandbox keys of its account.' })
  @ApiOkResponse({ type: KeyListResponseDto })
  async list(@CurrentApiKey() caller: ApiKeyPrincipal): Promise<KeyListResponseDto> {
    const keys = await this.keys.list(keyOwnerOf(caller));
    return { ok: true, keys: keys.map((key) => KeyViewDto.from(key)) };
  }

  @Post()
  @ApiOperation({
    summary: 'Create a key',
    description:
      'The plain key is in `secret` of this response only. An account holds at most 25 keys that are not revoked (configurable), ' +
      "sandbox and live together; a key's limits stay within the account's ceilings set by the operator.",
  })
  @ApiBody({ type: CreateKeyDto, required: false })
  @ApiCreatedResponse({ type: IssuedKeyResponseDto })
  @ApiForbiddenResponse({
    type: TranslationErrorDto,
    description: 'forbidden: the key lacks the `manage` scope, a sandbox key asked for a live key, or the account is not activated for production (live keys only after activation)',
  })
  @ApiUnprocessableEntityResponse({
    type: TranslationErrorDto,
    description: "unsupported_language: a field is invalid, a limit is above the account's ceiling, or the account holds the most keys it may",
  })
  async create(@CurrentApiKey() caller: ApiKeyPrincipal, @Body() body: CreateKeyDto): Promise<IssuedKeyResponseDto> {
    const sandbox = body.sandbox ?? caller.sandbox;
    if (caller.sandbox && !sandbox) {
      throw new ApiError(403, TranslationErrorCode.Forbidden, 'A sandbox key can only create sandbox keys');
    }
    return issued(
      await this.keys.create(caller.accountId, {
        sandbox,
        name: body.name,
        scopes: body.scopes,
        monthlyWordLimit: body.monthly_word_limit,
        rateLimitPerMinute: body.rate_limit_per_minute,
      }),
    );
  }

  @Post(':id/regenerate')
  @HttpCode(200)
  @ApiOperation({
    summary: 'Replace the secret of a key',
    description: 'Same id and settings; the previous secret is refused with 401 from this moment. Revoked keys cannot be regenerated.',
  })
  @ApiParam(KEY_ID)
  @ApiOkResponse({ type: IssuedKeyResponseDto })
  @ApiNotFoundResponse({ type: TranslationErrorDto, description: 'not_found: no such key in this account, or revoked' })
  async regenerate(@CurrentApiKey() caller: ApiKeyPrincipal, @Param('id') id: string): Promise<IssuedKeyResponseDto> {
    return issued(await this.keys.regenerate(keyOwnerOf(caller), id));
  }

  @Delete(':id')
  @ApiOperation({ summary: 'Revoke a key', description: 'The key is refused with 401 from this moment and stays listed as revoked.' })
  @ApiParam(KEY_ID)
  @ApiOkResponse({ type: KeyResponseDto })
  @ApiNotFoundResponse({ type: TranslationErrorDto, description: 'not_found: no such key in this account' })
  async revoke(@CurrentApiKey() caller: ApiKeyPrincipal, @Param('id') id: string): Promise<KeyResponseDto> {
    return { ok: true, key: KeyViewDto.from(await this.keys.revoke(keyOwnerOf(caller), id)) };
  }

  @Patch(':id')
  @ApiOperation({
    summary: "Change a key's monthly word limit or rate limit",
    description: "Takes effect with the next request. Up to the account's ceilings set by the operator; null removes the key's own limit, which leaves it held to the ceilings.",
  })
  @ApiParam(KEY_ID)
  @ApiOkResponse({ type: KeyResponseDto })
  @ApiNotFoundResponse({ type: TranslationErrorDto, description: 'not_found: no such key in this account, or revoked' })
  @ApiUnprocessableEntityResponse({ type: TranslationErrorDto, description: "unsupported_language: a limit is invalid, or above the account's ceiling (named in the message)" })
  async updateLimits(@CurrentApiKey() caller: ApiKeyPrincipal, @Param('id') id: string, @Body() body: KeyLimitsDto): Promise<KeyResponseDto> {
    if (body.monthly_word_limit === undefined && body.rate_limit_per_minute === undefined) {
      throw ApiError.invalidParameter('Give monthly_word_limit and/or rate_limit_per_minute');
    }
    const key = await this.keys.updateLimits(keyOwnerOf(caller), id, {
      monthlyWordLimit: body.monthly_word_limit,
      rateLimitPerMinute: body.rate_limit_per_minute,
    });
    return { ok: true, key: KeyViewDto.from(key) };
  }
}
