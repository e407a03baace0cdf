import { EnvInt } from '@platform/service-kit';
import { IsInt, Min } from 'class-validator';
import type { TranslationTier } from '../translation-request';

// TypeScript accepts exactly `any[]` as the constructor parameters of a mixin's base.
// eslint-disable-next-line @typescript-eslint/no-explicit-any
type ConfigClass = abstract new (...args: any[]) => object;

/**
 * Adds the per-tier prices (cents per 1,000 words) to an app's config class, e.g.
 * `class AppConfig extends withPricingConfig(withEngineConfig(DatabaseRedisConfig))`.
 */
export function withPricingConfig<TBase extends ConfigClass>(Base: TBase) {
  abstract class WithPricingConfig extends Base {
    @EnvInt() @IsInt() @Min(0)
    PRICE_BASIC_CENTS_PER_1000_WORDS = 20;

    @EnvInt() @IsInt() @Min(0)
    PRICE_PRO_CENTS_PER_1000_WORDS = 40;

    @EnvInt() @IsInt() @Min(0)
    PRICE_REVIEW_CENTS_PER_1000_WORDS = 120;
  }
  return WithPricingConfig;
}

/** The prices alone; any config built with `withPricingConfig` can stand in for it. */
export class PricingConfig extends withPricingConfig(class {}) {}

/** `ceil(words * price / 1000)`, once per request, so a request never costs less than it used. */
export function costCents(pricing: PricingConfig, tier: TranslationTier, words: number): number {
  const price = {
    basic: pricing.PRICE_BASIC_CENTS_PER_1000_WORDS,
    pro: pricing.PRICE_PRO_CENTS_PER_1000_WORDS,
    review: pricing.PRICE_REVIEW_CENTS_PER_1000_WORDS,
  }[tier];
  return Math.ceil((words * price) / 1000);
}
