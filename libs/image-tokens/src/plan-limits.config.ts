import { EnvInt } from '@platform/service-kit';
import { IsInt, Max, Min } from 'class-validator';
import type { ImagePlan } from './plans';

// A mixin constructor must take `any[]` (TypeScript rule for mixin classes).
// eslint-disable-next-line @typescript-eslint/no-explicit-any
type ConfigClass<T = object> = new (...args: any[]) => T;

/** Postgres integer columns hold the counters, so no limit may go beyond them. */
export const MAX_MONTHLY_LIMIT = 2_147_483_647;

/** Monthly conversion limits per plan; a token's own override replaces its plan's limit. */
export function withPlanLimitsConfig<B extends ConfigClass>(Base: B) {
  class PlanLimitsSettings extends Base {
    @EnvInt() @IsInt() @Min(0) @Max(MAX_MONTHLY_LIMIT)
    PLAN_LIMIT_FREE = 500;

    @EnvInt() @IsInt() @Min(0) @Max(MAX_MONTHLY_LIMIT)
    PLAN_LIMIT_STARTER = 10_000;

    @EnvInt() @IsInt() @Min(0) @Max(MAX_MONTHLY_LIMIT)
    PLAN_LIMIT_PRO = 50_000;

    @EnvInt() @IsInt() @Min(0) @Max(MAX_MONTHLY_LIMIT)
    PLAN_LIMIT_BUSINESS = 250_000;
  }
  return PlanLimitsSettings;
}

export type PlanLimitsSettings = Record<'PLAN_LIMIT_FREE' | 'PLAN_LIMIT_STARTER' | 'PLAN_LIMIT_PRO' | 'PLAN_LIMIT_BUSINESS', number>;

export type PlanLimits = Record<ImagePlan, number>;

export function planLimitsFrom(settings: PlanLimitsSettings): PlanLimits {
  return {
    free: settings.PLAN_LIMIT_FREE,
    starter: settings.PLAN_LIMIT_STARTER,
    pro: settings.PLAN_LIMIT_PRO,
    business: settings.PLAN_LIMIT_BUSINESS,
  };
}
