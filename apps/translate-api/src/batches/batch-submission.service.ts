import { Injectable } from '@nestjs/common';
import { BatchService, type BatchJob, type BatchRequest } from '@platform/batches';
import type { ApiKeyPrincipal } from '@platform/contracts';
import { ReviewRouting } from '@platform/review';

/**
 * Accepts a batch as BatchService does, deciding first for tier review who may review it: a
 * live job that nobody could review is refused, and the job records whether the platform's
 * reviewers may take it. Both POST /api/v1/batches and tier review of /api/v1/translate go
 * through here.
 */
@Injectable()
export class BatchSubmission {
  constructor(
    private readonly batches: BatchService,
    private readonly routing: ReviewRouting,
  ) {}

  async submit(key: ApiKeyPrincipal, request: BatchRequest): Promise<BatchJob> {
    const reviewPool = request.tier === 'review' && (await this.routing.route(key, request.target));
    return this.batches.submit(key, request, { reviewPool });
  }
}
