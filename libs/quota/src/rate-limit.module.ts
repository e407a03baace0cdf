import { DynamicModule, Module } from '@nestjs/common';
import { APP_INTERCEPTOR } from '@nestjs/core';
import { KeyRateLimitService, RATE_LIMIT_OPTIONS, RateLimitOptions } from './key-rate-limit.service';
import { RateLimitHeadersHook } from './rate-limit-headers.hook';
import { RateLimitInterceptor } from './rate-limit.interceptor';
import { RateLimiter } from './rate-limiter.service';

/** Per-key rate limiting of every authenticated endpoint of an HTTP app. Needs the global RedisModule. */
@Module({})
export class RateLimitModule {
  static forRoot(options: RateLimitOptions): DynamicModule {
    return {
      module: RateLimitModule,
      providers: [
        { provide: RATE_LIMIT_OPTIONS, useValue: options },
        RateLimiter,
        KeyRateLimitService,
        RateLimitHeadersHook,
        { provide: APP_INTERCEPTOR, useClass: RateLimitInterceptor },
      ],
      exports: [RateLimiter, KeyRateLimitService],
    };
  }
}
