import { CanActivate, ExecutionContext, Injectable } from '@nestjs/common';
import { bearerToken } from '@platform/auth';
import { TranslationErrorCode } from '@platform/contracts';
import { ApiError } from '@platform/errors';
import { ReviewerService, type Reviewer } from '@platform/review';
import { checkCredential } from '@platform/service-kit';
import type { FastifyRequest } from 'fastify';

declare module 'fastify' {
  interface FastifyRequest {
    reviewer?: Reviewer;
  }
}

export function invalidReviewerToken(): ApiError {
  return new ApiError(401, TranslationErrorCode.InvalidKey, 'Send a reviewer token: Authorization: Bearer rvw_...', {}, { 'WWW-Authenticate': 'Bearer' });
}

/** Review routes are open to reviewer tokens (`rvw_...`) only; API keys are not reviewers. Tokens are counted as API keys are (ApiKeyGuard). */
@Injectable()
export class ReviewerGuard implements CanActivate {
  constructor(private readonly reviewers: ReviewerService) {}

  async canActivate(context: ExecutionContext): Promise<boolean> {
    const request = context.switchToHttp().getRequest<FastifyRequest>();
    const token = bearerToken(request.headers.authorization);
    const reviewer = token ? await checkCredential(request, token, () => this.reviewers.authenticate(token)) : null;
    if (!reviewer) throw invalidReviewerToken();
    request.reviewer = reviewer;
    return true;
  }
}
