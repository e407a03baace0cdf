import { CanActivate, ExecutionContext, Injectable, createParamDecorator } from '@nestjs/common';
import type { TokenPrincipal } from '@platform/image-tokens';
import { TokenService } from '@platform/image-tokens';
import { checkCredential } from '@platform/service-kit';
import type { FastifyRequest } from 'fastify';

export const ACCESS_TOKEN_HEADER = 'x-access-token';

type AccessTokenRequest = FastifyRequest & { accessToken?: TokenPrincipal };

/**
 * `tokens.requireConvertible`, the token looked up through the address's count of failed
 * authentications (service-kit's auth-failure throttle), so that tokens guessed together are held
 * to the same limit as tokens guessed one after another.
 */
export async function requireConvertibleToken(tokens: TokenService, request: FastifyRequest, token: string | undefined): Promise<TokenPrincipal> {
  return tokens.convertible(token ? await checkCredential(request, token, () => tokens.status(token)) : null);
}

/**
 * Admits requests whose `X-Access-Token` belongs to an active subscription below its monthly
 * limit (401 otherwise, 403 when inactive, 402 at the limit), before any of the body is read. A
 * multipart request without the header may carry the token as its `access_token` field: it
 * passes without a principal, and the route checks the field before it reads any file.
 */
@Injectable()
export class AccessTokenGuard implements CanActivate {
  constructor(private readonly tokens: TokenService) {}

  async canActivate(context: ExecutionContext): Promise<boolean> {
    const request = context.switchToHttp().getRequest<AccessTokenRequest>();
    const header = request.headers[ACCESS_TOKEN_HEADER];
    if (header === undefined && request.isMultipart?.()) return true;
    request.accessToken = await requireConvertibleToken(this.tokens, request, typeof header === 'string' ? header : undefined);
    return true;
  }
}

/** The principal AccessTokenGuard admitted. */
export const AccessTokenPrincipal = createParamDecorator(
  (_: unknown, context: ExecutionContext): TokenPrincipal | undefined => context.switchToHttp().getRequest<AccessTokenRequest>().accessToken,
);
