import { CanActivate, ExecutionContext, Injectable, SetMetadata, createParamDecorator } from '@nestjs/common';
import { Reflector } from '@nestjs/core';
import { TranslationErrorCode } from '@platform/contracts';
import { ApiError } from '@platform/errors';
import { checkCredential, PUBLIC_ROUTE } from '@platform/service-kit';
import type { FastifyRequest } from 'fastify';
import { timingSafeEqual } from 'node:crypto';
import type { ConsoleRole } from '../users/console-user.entity';
import { sessionToken } from './session-cookie';
import { SessionsService, type SignedIn } from './sessions.service';

declare module 'fastify' {
  interface FastifyRequest {
    signedIn?: SignedIn;
  }
}

export const CSRF_HEADER = 'x-csrf-token';
const ALLOWED_ROLES = 'console:roles';
const SAFE_METHODS = new Set(['GET', 'HEAD', 'OPTIONS']);

/** Roles that may call a route; a route without it is open to every signed-in user. */
export const Roles = (...roles: ConsoleRole[]) => SetMetadata(ALLOWED_ROLES, roles);

/** The signed-in user of the request, as set by the session guard. */
export const CurrentUser = createParamDecorator((_: unknown, context: ExecutionContext) => context.switchToHttp().getRequest<FastifyRequest>().signedIn);

export const notSignedIn = () => new ApiError(401, 'not_signed_in', 'Sign in first: this needs a console session');

function sameToken(given: string | string[] | undefined, expected: string): boolean {
  if (typeof given !== 'string') return false;
  const a = Buffer.from(given);
  const b = Buffer.from(expected);
  return a.length === b.length && timingSafeEqual(a, b);
}

/**
 * Global guard: every route needs a live session cookie unless marked `@Public()`; a
 * state-changing request also needs the session's CSRF token in X-CSRF-Token (a cross-site page
 * can make the browser send the cookie, but cannot read the token); `@Roles` limits a route to
 * some roles. The session is looked up on every request, so revocation is immediate. Cookie
 * tokens go through the address's count of failed authentications as API keys do.
 */
@Injectable()
export class SessionGuard implements CanActivate {
  constructor(
    private readonly reflector: Reflector,
    private readonly sessions: SessionsService,
  ) {}

  async canActivate(context: ExecutionContext): Promise<boolean> {
    if (context.getType() !== 'http') return true;
    const targets = [context.getHandler(), context.getClass()];
    if (this.reflector.getAllAndOverride<boolean>(PUBLIC_ROUTE, targets)) return true;

    const request = context.switchToHttp().getRequest<FastifyRequest>();
    const token = sessionToken(request.headers.cookie);
    const signedIn = token ? await checkCredential(request, token, () => this.sessions.resume(token)) : null;
    if (!signedIn) throw notSignedIn();
    if (!SAFE_METHODS.has(request.method) && !sameToken(request.headers[CSRF_HEADER], signedIn.csrfToken)) {
      throw new ApiError(403, 'csrf_token_invalid', `Missing or wrong CSRF token: send the session's csrf_token (from sign-in or /console/api/me) in the ${CSRF_HEADER} header`);
    }
    const roles = this.reflector.getAllAndOverride<ConsoleRole[] | undefined>(ALLOWED_ROLES, targets);
    if (roles && !roles.includes(signedIn.role)) {
      throw new ApiError(403, TranslationErrorCode.Forbidden, `This needs the role ${roles.join(' or ')}; you are ${signedIn.role}`);
    }
    request.signedIn = signedIn;
    return true;
  }
}
