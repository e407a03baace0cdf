import { ConfigError, DatabaseConfig, loadConfig } from '@platform/service-kit';
import { describe, expect, it } from 'vitest';
import { costCents, PricingConfig, withPricingConfig } from './pricing.config';

describe('PricingConfig', () => {
  it('defaults to 20, 40 and 120 cents per 1,000 words', () => {
    expect(loadConfig(PricingConfig, {})).toMatchObject({
      PRICE_BASIC_CENTS_PER_1000_WORDS: 20,
      PRICE_PRO_CENTS_PER_1000_WORDS: 40,
      PRICE_REVIEW_CENTS_PER_1000_WORDS: 120,
    });
  });

  it('reads prices from the environment and refuses invalid ones', () => {
    expect(loadConfig(PricingConfig, { PRICE_REVIEW_CENTS_PER_1000_WORDS: '250' }).PRICE_REVIEW_CENTS_PER_1000_WORDS).toBe(250);
    expect(() => loadConfig(PricingConfig, { PRICE_BASIC_CENTS_PER_1000_WORDS: '-1' })).toThrow(ConfigError);
    expect(() => loadConfig(PricingConfig, { PRICE_PRO_CENTS_PER_1000_WORDS: '0.5' })).toThrow(ConfigError);
  });

  it('mixes into an app config class', () => {
    class AppConfig extends withPricingConfig(DatabaseConfig) {}
    const config = loadConfig(AppConfig, { PRICE_PRO_CENTS_PER_1000_WORDS: '55', DATABASE_POOL_SIZE: '3' });
    expect(config).toMatchObject({ PRICE_PRO_CENTS_PER_1000_WORDS: 55, PRICE_BASIC_CENTS_PER_1000_WORDS: 20, DATABASE_POOL_SIZE: 3 });
    expect(costCents(config, 'pro', 100)).toBe(6);
  });

  it.each([
    ['basic', 0, 0],
    ['basic', 1, 1],
    ['basic', 50, 1],
    ['basic', 51, 2],
    ['pro', 25, 1],
    ['pro', 26, 2],
    ['pro', 1000, 40],
    ['review', 1000, 120],
    ['review', 1001, 121],
    ['review', 30_000, 3600],
  ] as const)('%s: %i words cost %i cents (rounded up once per request)', (tier, words, cents) => {
    expect(costCents(loadConfig(PricingConfig, {}), tier, words)).toBe(cents);
  });
});
