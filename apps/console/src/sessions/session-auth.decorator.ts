import { applyDecorators } from '@nestjs/common';
import { ApiCookieAuth, ApiForbiddenResponse, ApiUnauthorizedResponse } from '@nestjs/swagger';
import { TranslationErrorDto } from '@platform/errors';
import { SESSION_COOKIE } from './session-cookie';

/** OpenAPI for routes behind the session guard: the cookie scheme and what the guard (and the route, `forbidden`) answers. */
export const SessionAuth = (forbidden = "forbidden: the user's role may not do this") =>
  applyDecorators(
    ApiCookieAuth(SESSION_COOKIE),
    ApiUnauthorizedResponse({ type: TranslationErrorDto, description: 'not_signed_in: no session cookie, or the session ended or was revoked' }),
    ApiForbiddenResponse({
      type: TranslationErrorDto,
      description: `csrf_token_invalid: a POST, PUT, PATCH or DELETE without the session's X-CSRF-Token; ${forbidden}`,
    }),
  );
