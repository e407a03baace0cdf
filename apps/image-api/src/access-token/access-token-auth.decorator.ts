import { applyDecorators, UseGuards } from '@nestjs/common';
import { ApiForbiddenResponse, ApiSecurity, ApiUnauthorizedResponse } from '@nestjs/swagger';
import { ImageErrorDto } from '@platform/errors';
import { AccessTokenGuard } from './access-token.guard';

/** Protects a route with the `X-Access-Token` header and documents the failures. */
export const AccessTokenAuth = () =>
  applyDecorators(
    UseGuards(AccessTokenGuard),
    ApiSecurity('access-token'),
    ApiUnauthorizedResponse({ type: ImageErrorDto, description: 'Access token missing, unknown or revoked (error_fatal_status true)' }),
    ApiForbiddenResponse({ type: ImageErrorDto, description: 'Subscription inactive (error_fatal_status true)' }),
  );
