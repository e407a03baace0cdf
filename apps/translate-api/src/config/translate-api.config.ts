import { DefaultPort } from '@platform/contracts';
import { DatabaseRedisConfig, EnvInt } from '@platform/service-kit';
import { IsInt, Max, Min } from 'class-validator';

export class TranslateApiConfig extends DatabaseRedisConfig {
  PORT = DefaultPort['translate-api'];

  /** Requests larger than this are refused before their body is parsed. */
  @EnvInt() @IsInt() @Min(64 * 1024) @Max(64 * 1024 * 1024)
  MAX_BODY_BYTES = 2 * 1024 * 1024;
}
