import { applyDecorators, SetMetadata } from '@nestjs/common';
import { ApiForbiddenResponse } from '@nestjs/swagger';
import type { KeyScope } from '@platform/contracts';

export const REQUIRED_SCOPE = 'auth:required-scope';

/** Restricts a controller or handler to keys carrying `scope`; other keys get 403 `forbidden`. */
export const RequireScope = (scope: KeyScope) =>
  applyDecorators(
    SetMetadata(REQUIRED_SCOPE, scope),
    ApiForbiddenResponse({ description: `forbidden: the key lacks the \`${scope}\` scope` }),
  );
