import { DefaultPort } from '@platform/contracts';
import { withSandboxQuotaConfig } from '@platform/quota';
import { DatabaseRedisConfig, EnvInt } from '@platform/service-kit';
import { withEngineConfig } from '@platform/translation-engines';
import { withPricingConfig } from '@platform/translation-pipeline';
import { withWebhookUrlConfig } from '@platform/webhooks';
import { Transform } from 'class-transformer';
import { ArrayUnique, IsIn, IsInt, Max, Min } from 'class-validator';
import { COMPAT_APIS, type CompatApi } from '../compat/compat-apis';

export class TranslateApiConfig extends withSandboxQuotaConfig(withWebhookUrlConfig(withPricingConfig(withEngineConfig(DatabaseRedisConfig)))) {
  PORT = DefaultPort['translate-api'];

  /**
   * Requests larger than this are refused before their body is parsed. A batch may carry
   * 1,000,000 characters, which JSON escaping can make several times as many bytes.
   */
  @EnvInt() @IsInt() @Min(64 * 1024) @Max(64 * 1024 * 1024)
  MAX_BODY_BYTES = 8 * 1024 * 1024;

  /** Requests per minute for keys that have no rate_limit_per_minute of their own. */
  @EnvInt() @IsInt() @Min(1) @Max(1_000_000)
  RATE_LIMIT_PER_MINUTE = 60;

  /** Keys an account may hold that are not revoked, sandbox and live together. */
  @EnvInt() @IsInt() @Min(1) @Max(10_000)
  MAX_KEYS_PER_ACCOUNT = 25;

  /** How long the response to a request with an Idempotency-Key is kept for replays. */
  @EnvInt() @IsInt() @Min(1) @Max(30 * 24 * 3600)
  IDEMPOTENCY_TTL_SECONDS = 24 * 3600;

  /** How long a reviewer's claim on a review task holds before the task returns to the pool. */
  @EnvInt() @IsInt() @Min(10) @Max(7 * 24 * 3600)
  REVIEW_LEASE_SECONDS = 900;

  /**
   * Other vendors' APIs answered besides /api/v1, comma-separated: `deepl` (/v2),
   * `libretranslate` (/translate, /languages, /detect, /frontend/settings). `none` turns both
   * off; an empty value, like every empty variable, means the default.
   */
  @Transform(({ value }) => (value === 'none' ? [] : typeof value === 'string' ? value.split(',').map((s) => s.trim()).filter(Boolean) : value))
  @ArrayUnique() @IsIn(COMPAT_APIS, { each: true })
  COMPAT_APIS: CompatApi[] = [...COMPAT_APIS];
}
