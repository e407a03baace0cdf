import { DynamicModule, Module } from '@nestjs/common';
import { planLimitsFrom, type PlanLimitsSettings } from './plan-limits.config';
import { PLAN_LIMITS, TokenService } from './token.service';

/** TokenService over the image schema; needs a DatabaseModule (or TypeORM root) for the image domain. */
@Module({})
export class ImageTokensModule {
  static forRoot(settings: PlanLimitsSettings): DynamicModule {
    return {
      module: ImageTokensModule,
      // Global so that token guards work in the controllers of any feature module.
      global: true,
      providers: [{ provide: PLAN_LIMITS, useValue: planLimitsFrom(settings) }, TokenService],
      exports: [TokenService],
    };
  }
}
