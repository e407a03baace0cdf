import { EU_LANGUAGES, isEuLanguage } from '@platform/contracts';
import { EnvInt, EnvList } from '@platform/service-kit';
import {
  ArrayNotEmpty,
  ArrayUnique,
  IsIn,
  IsInt,
  IsNotEmpty,
  IsOptional,
  IsString,
  IsUrl,
  Max,
  Min,
  Validate,
  ValidateIf,
  ValidatorConstraint,
  type ValidationArguments,
  type ValidatorConstraintInterface,
} from 'class-validator';
import { APERTIUM_ALLOCATORS, type ApertiumAllocator } from './apertium/apertium-allocator';

export const ENGINE_NAMES = ['apertium', 'deepl', 'libretranslate'] as const;
export type EngineName = (typeof ENGINE_NAMES)[number];

interface EngineSelection {
  TRANSLATION_ENGINE: EngineName;
  TRANSLATION_ENGINES?: EngineName[];
}

/** The engines in the order routing tries them: TRANSLATION_ENGINES when set, else TRANSLATION_ENGINE alone. */
export function engineNames(config: EngineSelection): EngineName[] {
  return config.TRANSLATION_ENGINES ?? [config.TRANSLATION_ENGINE];
}

const uses = (config: EngineSelection, engine: EngineName) => engineNames(config).includes(engine);

/** `en-de:deepl` -> key `en-de`, engine `deepl`. */
const ROUTE = /^([a-z]{2})-([a-z]{2}):([a-z]+)$/;

/** TRANSLATION_ROUTES as a map from `source-target` to the engine that takes that pair first. */
export function parseRoutes(routes: string[] = []): Map<string, EngineName> {
  return new Map(
    routes.map((route) => {
      const [, source, target, engine] = ROUTE.exec(route)!;
      return [`${source}-${target}`, engine as EngineName];
    }),
  );
}

@ValidatorConstraint({ name: 'translationRoutes' })
class TranslationRoutes implements ValidatorConstraintInterface {
  validate(routes: unknown, { object }: ValidationArguments): boolean {
    return Array.isArray(routes) && routes.every((route) => this.problem(route, object as EngineSelection) === undefined);
  }

  defaultMessage({ value, object }: ValidationArguments): string {
    const routes = Array.isArray(value) ? value : [value];
    return routes.map((route) => this.problem(route, object as EngineSelection)).filter(Boolean).join('; ');
  }

  private problem(route: unknown, config: EngineSelection): string | undefined {
    const match = typeof route === 'string' ? ROUTE.exec(route) : null;
    if (!match) return `${String(route)} is not of the form source-target:engine (e.g. en-de:deepl)`;
    const [, source, target, engine] = match;
    if (!isEuLanguage(source) || !isEuLanguage(target) || source === target) return `${route}: ${source}-${target} is not a pair of two official EU languages`;
    if (!engineNames(config).includes(engine as EngineName)) return `${route}: ${engine} is not one of the configured engines (${engineNames(config).join(', ')})`;
    return undefined;
  }
}

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
    /** The one engine, when TRANSLATION_ENGINES is not set. */
    @IsIn(ENGINE_NAMES)
    TRANSLATION_ENGINE: EngineName = 'apertium';

    /** Several engines, in order of preference: each pair goes to the first that does it directly. */
    @EnvList() @IsOptional() @ArrayNotEmpty() @ArrayUnique() @IsIn(ENGINE_NAMES, { each: true })
    TRANSLATION_ENGINES?: EngineName[] = undefined;

    /** Pairs that go to a named engine first, overriding the order: `en-de:deepl,en-fr:libretranslate`. */
    @EnvList() @IsOptional() @Validate(TranslationRoutes)
    TRANSLATION_ROUTES?: string[] = undefined;

    /** How long a remote engine's list of language pairs is trusted before it is asked again. */
    @EnvInt() @IsInt() @Min(1000) @Max(3_600_000)
    ENGINE_PAIRS_TTL_MS = 60_000;

    /** Apertium translates pairs without a direct mode through this language (a->pivot->b). */
    @IsIn(EU_LANGUAGES)
    APERTIUM_PIVOT_LANGUAGE = 'es';

    /** Warm pipelines per Apertium mode. */
    @EnvInt() @IsInt() @Min(1) @Max(16)
    APERTIUM_PIPELINES_PER_MODE = 1;

    /** Requests written into one pipeline before it has answered them (they follow each other through it). */
    @EnvInt() @IsInt() @Min(1) @Max(64)
    APERTIUM_REQUESTS_PER_PIPELINE = 4;

    @IsString() @IsNotEmpty()
    APERTIUM_MODES_DIR = '/usr/share/apertium/modes';

    /** How long a pipeline may take for a short request before it counts as stuck; grows with input size. */
    @EnvInt() @IsInt() @Min(100)
    APERTIUM_TIMEOUT_MS = 15_000;

    /** Segments after which a pipeline is replaced by a fresh one (lrx-proc grows with every segment it sees). */
    @EnvInt() @IsInt() @Min(1)
    APERTIUM_SEGMENTS_PER_PIPELINE = 200_000;

    /** malloc of Apertium's programs: tcmalloc (when installed) or the C library's own. */
    @IsIn(APERTIUM_ALLOCATORS)
    APERTIUM_ALLOCATOR: ApertiumAllocator = 'tcmalloc';

    @ValidateIf((config: WithEngineConfig) => uses(config, 'deepl') || config.DEEPL_API_KEY !== undefined)
    @IsString()
    @IsNotEmpty({ message: 'DEEPL_API_KEY is required when deepl is the engine (TRANSLATION_ENGINE or TRANSLATION_ENGINES)' })
    DEEPL_API_KEY?: string = undefined;

    /** DeepL's API base URL; by default the client picks api.deepl.com or api-free.deepl.com from the key. */
    @IsOptional() @IsUrl(HTTP_URL, { message: 'DEEPL_SERVER_URL must be an http(s) URL' })
    DEEPL_SERVER_URL?: string = undefined;

    @ValidateIf((config: WithEngineConfig) => uses(config, 'libretranslate') || config.LIBRETRANSLATE_URL !== undefined)
    @IsUrl(HTTP_URL, { message: 'LIBRETRANSLATE_URL must be an http(s) URL; it is required when libretranslate is an engine (TRANSLATION_ENGINE or TRANSLATION_ENGINES)' })
    LIBRETRANSLATE_URL?: string = undefined;

    @IsOptional() @IsString()
    LIBRETRANSLATE_API_KEY?: string = undefined;
  }
  return WithEngineConfig;
}

/** The engine settings alone, e.g. for tools that use an engine outside a service. */
export class EngineConfig extends withEngineConfig(class {}) {}
