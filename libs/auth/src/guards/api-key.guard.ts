import { CanActivate, ExecutionContext, Injectable } from '@nestjs/common';
import { Reflector } from '@nestjs/core';
import { TranslationErrorCode, type KeyScope } from '@platform/contracts';
import { ApiError } from '@platform/errors';
import { checkCredential, PUBLIC_ROUTE } from '@platform/service-kit';
import type { FastifyRequest } from 'fastify';
import { API_KEY_BODY_FIELDS } from '../decorators/api-key-in-body.decorator';
import { REQUIRED_SCOPE } from '../decorators/require-scope.decorator';
import { ApiKeyService } from '../keys/api-key.service';

/** DeepL's scheme is accepted everywhere too: clients written for DeepL's API send only that one. */
const BEARER = /^(?:Bearer|DeepL-Auth-Key) +(\S+) *$/i;

/** The credential of an `Authorization: Bearer <credential>` (or `DeepL-Auth-Key <credential>`) header, if the header has that shape. */
export function bearerToken(header: string | undefined): string | undefined {
  return header ? BEARER.exec(header)?.[1] : undefined;
}

export const MISSING_KEY_MESSAGE = 'Missing API key: send the header Authorization: Bearer <key>';

export function invalidKey(message = 'Invalid API key'): ApiError {
  return new ApiError(401, TranslationErrorCode.InvalidKey, message, {}, { 'WWW-Authenticate': 'Bearer' });
}

/** The first of `fields` of a form or JSON body that holds a string, for routes that allow it. */
function keyInBody(request: FastifyRequest, fields: string[] | undefined): string | undefined {
  const body = request.body as Record<string, unknown> | undefined;
  if (!fields || typeof body !== 'object' || body === null) return undefined;
  return fields.map((field) => body[field]).find((value): value is string => typeof value === 'string' && value !== '');
}

/**
 * Global guard: every route needs `Authorization: Bearer <key>` unless marked `@Public()`.
 * The key is looked up on every request (no cache), so revocation and regeneration take
 * effect at once on every replica. A key goes through the address's count of failed
 * authentications before its lookup (service-kit's auth-failure throttle), so keys guessed in
 * parallel are held to the same limit as keys guessed one by one.
 */
@Injectable()
export class ApiKeyGuard implements CanActivate {
  constructor(
    private readonly reflector: Reflector,
    private readonly keys: ApiKeyService,
  ) {}

  async canActivate(context: ExecutionContext): Promise<boolean> {
    if (context.getType() !== 'http') return true;
    const targets = [context.getHandler(), context.getClass()];
    if (this.reflector.getAllAndOverride<boolean>(PUBLIC_ROUTE, targets)) return true;

    const request = context.switchToHttp().getRequest<FastifyRequest>();
    const header = request.headers.authorization;
    const bodyKey = header ? undefined : keyInBody(request, this.reflector.getAllAndOverride<string[] | undefined>(API_KEY_BODY_FIELDS, targets));
    if (!header && bodyKey === undefined) throw invalidKey(MISSING_KEY_MESSAGE);
    const token = header ? bearerToken(header) : bodyKey;
    const principal = token ? await checkCredential(request, token, () => this.keys.authenticate(token)) : null;
    if (!principal) throw invalidKey();
    request.apiKey = principal;
    this.keys.noteUse(principal.keyId);

    const scope = this.reflector.getAllAndOverride<KeyScope | undefined>(REQUIRED_SCOPE, targets);
    if (scope && !principal.scopes.includes(scope)) {
      throw new ApiError(403, TranslationErrorCode.Forbidden, `This key lacks the "${scope}" scope`);
    }
    return true;
  }
}
