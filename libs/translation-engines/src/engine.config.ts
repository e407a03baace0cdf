import { EU_LANGUAGES } from '@platform/contracts';
import { EnvInt } from '@platform/service-kit';
import { IsIn, IsInt, IsNotEmpty, IsOptional, IsString, IsUrl, Max, Min, ValidateIf } from 'class-validator';

export const ENGINE_NAMES = ['apertium', 'deepl', 'libretranslate'] as const;
export type EngineName = (typeof ENGINE_NAMES)[number];

const HTTP_URL = { require_tld: false, require_protocol: true, protocols: ['http', 'https'] };

// TypeScript accepts exactly `any[]` as the constructor parameters of a mixin's base.
// eslint-disable-next-line @typescript-eslint/no-explicit-any
type ConfigClass = abstract new (...args: any[]) => object;

/**
 * Adds the engine settings to an app's config class (`class AppConfig extends
 * withEngineConfig(DatabaseRedisConfig)`), since a class can extend only one base.
 *
 * Optional settings are initialised to `undefined` so that `loadConfig` sees their names: it
 * reads only the variables a config instance has as properties.
 */
export function withEngineConfig<TBase extends ConfigClass>(Base: TBase) {
  abstract class WithEngineConfig extends Base {
    @IsIn(ENGINE_NAMES)
    TRANSLATION_ENGINE: EngineName = 'apertium';

    /** Apertium translates pairs without a direct mode through this language (a->pivot->b). */
    @IsIn(EU_LANGUAGES)
    APERTIUM_PIVOT_LANGUAGE = 'es';

    /** Warm pipelines per Apertium mode; each serves one request at a time. */
    @EnvInt() @IsInt() @Min(1) @Max(16)
    APERTIUM_PIPELINES_PER_MODE = 1;

    @IsString() @IsNotEmpty()
    APERTIUM_MODES_DIR = '/usr/share/apertium/modes';

    /** How long a pipeline may take for a short request before it counts as stuck; grows with input size. */
    @EnvInt() @IsInt() @Min(100)
    APERTIUM_TIMEOUT_MS = 15_000;

    @ValidateIf((config: WithEngineConfig) => config.TRANSLATION_ENGINE === 'deepl' || config.DEEPL_API_KEY !== undefined)
    @IsString()
    @IsNotEmpty({ message: 'DEEPL_API_KEY is required when TRANSLATION_ENGINE=deepl' })
    DEEPL_API_KEY?: string = undefined;

    /** DeepL's API base URL; by default the client picks api.deepl.com or api-free.deepl.com from the key. */
    @IsOptional() @IsUrl(HTTP_URL, { message: 'DEEPL_SERVER_URL must be an http(s) URL' })
    DEEPL_SERVER_URL?: string = undefined;

    @ValidateIf((config: WithEngineConfig) => config.TRANSLATION_ENGINE === 'libretranslate' || config.LIBRETRANSLATE_URL !== undefined)
    @IsUrl(HTTP_URL, { message: 'LIBRETRANSLATE_URL must be an http(s) URL; it is required when TRANSLATION_ENGINE=libretranslate' })
    LIBRETRANSLATE_URL?: string = undefined;

    @IsOptional() @IsString()
    LIBRETRANSLATE_API_KEY?: string = undefined;
  }
  return WithEngineConfig;
}

/** The engine settings alone, e.g. for tools that use an engine outside a service. */
export class EngineConfig extends withEngineConfig(class {}) {}
