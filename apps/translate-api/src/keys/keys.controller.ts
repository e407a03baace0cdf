import { Body, Controller, Delete, Get, HttpCode, Param, Patch, Post } from '@nestjs/common';
import {
  ApiBody,
  ApiCreatedResponse,
  ApiForbiddenResponse,
  ApiOkResponse,
  ApiOperation,
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
  KeyRouteDocs,
  RegenerateKeyDto,
  KeyListResponseDto,
  KeyResponseDto,
  KeyViewDto,
  keyOwnerOf,
  RequireScope,
  requestedKey,
  requestedLimits,
} from '@platform/auth';
import { TranslationErrorCode, type ApiKeyPrincipal } from '@platform/contracts';
import { ApiError, TranslationErrorDto } from '@platform/errors';

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
    return IssuedKeyResponseDto.from(await this.keys.create(caller.accountId, requestedKey(body, sandbox)));
  }

  @Post(':id/regenerate')
  @HttpCode(200)
  @KeyRouteDocs.regenerate('unsupported_language')
  async regenerate(@CurrentApiKey() caller: ApiKeyPrincipal, @Param('id') id: string, @Body() body: RegenerateKeyDto): Promise<IssuedKeyResponseDto> {
    return IssuedKeyResponseDto.from(await this.keys.regenerate(keyOwnerOf(caller), id, body.previous_secret_valid_for));
  }

  @Delete(':id')
  @KeyRouteDocs.revoke()
  async revoke(@CurrentApiKey() caller: ApiKeyPrincipal, @Param('id') id: string): Promise<KeyResponseDto> {
    return { ok: true, key: KeyViewDto.from(await this.keys.revoke(keyOwnerOf(caller), id)) };
  }

  @Patch(':id')
  @KeyRouteDocs.updateLimits('unsupported_language')
  async updateLimits(@CurrentApiKey() caller: ApiKeyPrincipal, @Param('id') id: string, @Body() body: KeyLimitsDto): Promise<KeyResponseDto> {
    const key = await this.keys.updateLimits(keyOwnerOf(caller), id, requestedLimits(body));
    return { ok: true, key: KeyViewDto.from(key) };
  }
}
