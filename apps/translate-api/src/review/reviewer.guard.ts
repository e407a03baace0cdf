import { CanActivate, ExecutionContext, Injectable } from '@nestjs/common';
import { TranslationErrorCode } from '@platform/contracts';
import { ApiError } from '@platform/errors';
import { ReviewerService, type Reviewer } from '@platform/review';
import type { FastifyRequest } from 'fastify';

const BEARER = /^Bearer +(\S+) *$/i;

declare module 'fastify' {
  interface FastifyRequest {
    reviewer?: Reviewer;
  }
}

/** Review routes are open to reviewer tokens (`rvw_...`) only; API keys are not reviewers. */
@Injectable()
export class ReviewerGuard implements CanActivate {
  constructor(private readonly reviewers: ReviewerService) {}

  async canActivate(context: ExecutionContext): Promise<boolean> {
    const request = context.switchToHttp().getRequest<FastifyRequest>();
    const token = BEARER.exec(request.headers.authorization ?? '')?.[1];
    const reviewer = token ? await this.reviewers.authenticate(token) : null;
    if (!reviewer) {
      throw new ApiError(401, TranslationErrorCode.InvalidKey, 'Send a reviewer token: Authorization: Bearer rvw_...', {}, { 'WWW-Authenticate': 'Bearer' });
    }
    request.reviewer = reviewer;
    return true;
  }
}
