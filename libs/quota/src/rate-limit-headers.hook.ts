import { Injectable, OnModuleInit } from '@nestjs/common';
import { HttpAdapterHost } from '@nestjs/core';
import type { FastifyInstance } from 'fastify';
import { KeyRateLimitService } from './key-rate-limit.service';

/**
 * Some authenticated responses never reach the interceptor: the auth guard's own 403 for a
 * missing scope, or an interceptor that answers early. This hook counts those requests too and
 * adds the rate-limit fields, so every authenticated response carries them. It cannot refuse
 * them any more; they were already answered.
 */
@Injectable()
export class RateLimitHeadersHook implements OnModuleInit {
  constructor(
    private readonly adapterHost: HttpAdapterHost,
    private readonly limits: KeyRateLimitService,
  ) {}

  onModuleInit() {
    const fastify = this.adapterHost.httpAdapter?.getInstance<FastifyInstance>();
    fastify?.addHook('onSend', async (request, reply, payload) => {
      if (request.apiKey && !this.limits.isCounted(request)) await this.limits.count(request.apiKey, request, reply);
      return payload;
    });
  }
}
