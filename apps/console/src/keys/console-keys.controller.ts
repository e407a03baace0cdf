import { Body, Controller, Delete, Get, HttpCode, Param, Patch, Post } from '@nestjs/common';
import {
  ApiBody,
  ApiCreatedResponse,
  ApiOkResponse,
  ApiOperation,
  ApiTags,
  ApiUnprocessableEntityResponse,
} from '@nestjs/swagger';
import {
  AccountService,
  ApiKeyService,
  IssuedKeyResponseDto,
  KeyLimitsDto,
  KeyRouteDocs,
  RegenerateKeyDto,
  KeyListResponseDto,
  KeyResponseDto,
  KeyViewDto,
  requestedKey,
  requestedLimits,
  type KeyOwner,
} from '@platform/auth';
import { TranslationErrorDto } from '@platform/errors';
import { SessionAuth } from '../sessions/session-auth.decorator';
import { CurrentUser, Roles } from '../sessions/session.guard';
import type { SignedIn } from '../sessions/sessions.service';
import { ConsoleCreateKeyDto } from './dtos/console-create-key.dto';

/** A signed-in owner or member manages every key of the account, sandbox and live. */
const ownerOf = (user: SignedIn): KeyOwner => ({ accountId: user.accountId, sandboxOnly: false });

/**
 * The account's API keys for the browser, with the key service's own rules (the key cap,
 * the account's ceilings, live keys only for activated accounts). Secrets appear only in the
 * answers of create and regenerate.
 */
@ApiTags('keys')
@SessionAuth()
@Roles('owner', 'member')
@Controller('console/api/keys')
export class ConsoleKeysController {
  constructor(
    private readonly keys: ApiKeyService,
    private readonly accounts: AccountService,
  ) {}

  @Get()
  @ApiOperation({ summary: "List the account's keys (never their secrets)" })
  @ApiOkResponse({ type: KeyListResponseDto })
  async list(@CurrentUser() user: SignedIn): Promise<KeyListResponseDto> {
    return { ok: true, keys: (await this.keys.list(ownerOf(user))).map((key) => KeyViewDto.from(key)) };
  }

  @Post()
  @ApiOperation({
    summary: 'Create a key',
    description:
      'The plain key is in `secret` of this response only. Without `sandbox` the key is live when the account is activated and sandbox otherwise; ' +
      'a live key for an account that is not activated is refused with 403.',
  })
  @ApiBody({ type: ConsoleCreateKeyDto })
  @ApiCreatedResponse({ type: IssuedKeyResponseDto })
  @ApiUnprocessableEntityResponse({ type: TranslationErrorDto, description: "invalid_request: a field is invalid, the name is missing or blank, a limit is above the account's ceiling, or the account holds the most keys it may" })
  async create(@CurrentUser() user: SignedIn, @Body() body: ConsoleCreateKeyDto): Promise<IssuedKeyResponseDto> {
    const account = await this.accounts.findById(user.accountId);
    return IssuedKeyResponseDto.from(await this.keys.create(user.accountId, requestedKey(body, body.sandbox ?? !account?.activatedAt)));
  }

  @Post(':id/regenerate')
  @HttpCode(200)
  @KeyRouteDocs.regenerate('invalid_request')
  async regenerate(@CurrentUser() user: SignedIn, @Param('id') id: string, @Body() body: RegenerateKeyDto): Promise<IssuedKeyResponseDto> {
    return IssuedKeyResponseDto.from(await this.keys.regenerate(ownerOf(user), id, body.previous_secret_valid_for));
  }

  @Delete(':id')
  @KeyRouteDocs.revoke()
  async revoke(@CurrentUser() user: SignedIn, @Param('id') id: string): Promise<KeyResponseDto> {
    return { ok: true, key: KeyViewDto.from(await this.keys.revoke(ownerOf(user), id)) };
  }

  @Patch(':id')
  @KeyRouteDocs.updateLimits('invalid_request')
  async updateLimits(@CurrentUser() user: SignedIn, @Param('id') id: string, @Body() body: KeyLimitsDto): Promise<KeyResponseDto> {
    const key = await this.keys.updateLimits(ownerOf(user), id, requestedLimits(body));
    return { ok: true, key: KeyViewDto.from(key) };
  }
}
