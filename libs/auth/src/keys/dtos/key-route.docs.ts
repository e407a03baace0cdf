import { applyDecorators } from '@nestjs/common';
import { ApiBody, ApiNotFoundResponse, ApiOkResponse, ApiOperation, ApiParam, ApiUnprocessableEntityResponse } from '@nestjs/swagger';
import { TranslationErrorDto } from '@platform/errors';
import { IssuedKeyResponseDto, KeyResponseDto } from './key-responses.dto';
import { RegenerateKeyDto } from './regenerate-key.dto';

const KEY_ID = { name: 'id', format: 'uuid', description: 'Key id (not the secret)' };

/**
 * OpenAPI of the key routes the public API (`/api/v1/keys`) and the console share, as both run
 * the same key service. `invalidCode` is the `error` each answers for an invalid field.
 */
export const KeyRouteDocs = {
  regenerate: (invalidCode: string) =>
    applyDecorators(
      ApiOperation({
        summary: 'Replace the secret of a key',
        description:
          'Same id and settings, a new secret. The previous secret is refused with 401 from this moment, or keeps working for the window `previous_secret_valid_for` names (rolling a key without downtime; the key shows until when in `previous_secret_expires_at`). A secret kept from an earlier regeneration ends now. Revoked keys cannot be regenerated.',
      }),
      ApiParam(KEY_ID),
      ApiBody({ type: RegenerateKeyDto, required: false }),
      ApiOkResponse({ type: IssuedKeyResponseDto }),
      ApiNotFoundResponse({ type: TranslationErrorDto, description: 'not_found: no such key in this account, or revoked' }),
      ApiUnprocessableEntityResponse({ type: TranslationErrorDto, description: `${invalidCode}: previous_secret_valid_for is not one of the windows` }),
    ),
  revoke: () =>
    applyDecorators(
      ApiOperation({ summary: 'Revoke a key', description: 'The key is refused with 401 from this moment and stays listed as revoked.' }),
      ApiParam(KEY_ID),
      ApiOkResponse({ type: KeyResponseDto }),
      ApiNotFoundResponse({ type: TranslationErrorDto, description: 'not_found: no such key in this account' }),
    ),
  updateLimits: (invalidCode: string) =>
    applyDecorators(
      ApiOperation({
        summary: "Change a key's monthly word limit or rate limit",
        description:
          "Takes effect with the next request. Up to the account's ceilings set by the operator; null removes the key's own limit, which leaves it held to the ceilings.",
      }),
      ApiParam(KEY_ID),
      ApiOkResponse({ type: KeyResponseDto }),
      ApiNotFoundResponse({ type: TranslationErrorDto, description: 'not_found: no such key in this account, or revoked' }),
      ApiUnprocessableEntityResponse({ type: TranslationErrorDto, description: `${invalidCode}: a limit is invalid, or above the account's ceiling (named in the message)` }),
    ),
};
