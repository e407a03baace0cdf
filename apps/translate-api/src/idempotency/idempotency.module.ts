import { DynamicModule, Global, Module } from '@nestjs/common';
import { IDEMPOTENCY_OPTIONS, IdempotencyOptions, IdempotencyStore } from './idempotency.store';

/** Idempotency-Key support for every route marked `@Idempotent()`. Needs the global RedisModule. */
@Global()
@Module({})
export class IdempotencyModule {
  static forRoot(options: IdempotencyOptions): DynamicModule {
    return {
      module: IdempotencyModule,
      providers: [{ provide: IDEMPOTENCY_OPTIONS, useValue: options }, IdempotencyStore],
      exports: [IdempotencyStore],
    };
  }
}
