import { applyDecorators } from '@nestjs/common';
import { ApiBearerAuth, ApiUnauthorizedResponse } from '@nestjs/swagger';
import { TranslationErrorDto } from '@platform/errors';

/** OpenAPI for routes behind the API key guard: bearer scheme and the 401 it answers. */
export const ApiKeyAuth = () =>
  applyDecorators(
    ApiBearerAuth(),
    ApiUnauthorizedResponse({ type: TranslationErrorDto, description: 'invalid_key: key missing, unknown, revoked or regenerated' }),
  );
