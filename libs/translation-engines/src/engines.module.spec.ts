import { Test } from '@nestjs/testing';
import { ConfigError, DatabaseRedisConfig, loadConfig } from '@platform/service-kit';
import { isProcessRunning } from '@platform/testing';
import { describe, expect, it } from 'vitest';
import { ApertiumEngine } from './apertium/apertium.engine';
import { DeeplEngine } from './deepl/deepl.engine';
import { EngineConfig, withEngineConfig } from './engine.config';
import { createEngine, createRouter, EnginesModule } from './engines.module';
import { LibreTranslateEngine } from './libretranslate/libretranslate.engine';
import { EngineRouter } from './routing/engine-router';


describe('EngineConfig', () => {
  it('defaults to Apertium pivoting through Spanish', () => {
    expect(loadConfig(EngineConfig, {})).toMatchObject({
      TRANSLATION_ENGINE: 'apertium',
      TRANSLATION_ENGINES: undefined,
      TRANSLATION_ROUTES: undefined,
      ENGINE_PAIRS_TTL_MS: 60_000,
      APERTIUM_PIVOT_LANGUAGE: 'es',
      APERTIUM_PIPELINES_PER_MODE: 1,
      APERTIUM_REQUESTS_PER_PIPELINE: 4,
      APERTIUM_SEGMENTS_PER_PIPELINE: 200_000,
      APERTIUM_ALLOCATOR: 'tcmalloc',
      DEEPL_API_KEY: undefined,
      LIBRETRANSLATE_URL: undefined,
    });
  });

  it('reads every engine variable, also when mixed into an app config', () => {
    class AppConfig extends withEngineConfig(DatabaseRedisConfig) {}
    const config = loadConfig(AppConfig, {
      TRANSLATION_ENGINE: 'deepl',
      DEEPL_API_KEY: 'secret:fx',
      DEEPL_SERVER_URL: 'http://127.0.0.1:8080',
      LIBRETRANSLATE_URL: 'https://lt.example.org',
      LIBRETRANSLATE_API_KEY: 'lt-key',
      APERTIUM_PIVOT_LANGUAGE: 'en',
      APERTIUM_PIPELINES_PER_MODE: '2',
      APERTIUM_REQUESTS_PER_PIPELINE: '8',
      APERTIUM_SEGMENTS_PER_PIPELINE: '50000',
      APERTIUM_ALLOCATOR: 'system',
      PORT: '8080',
    });
    expect(config).toMatchObject({
      TRANSLATION_ENGINE: 'deepl',
      DEEPL_API_KEY: 'secret:fx',
      DEEPL_SERVER_URL: 'http://127.0.0.1:8080',
      LIBRETRANSLATE_URL: 'https://lt.example.org',
      LIBRETRANSLATE_API_KEY: 'lt-key',
      APERTIUM_PIVOT_LANGUAGE: 'en',
      APERTIUM_PIPELINES_PER_MODE: 2,
      APERTIUM_REQUESTS_PER_PIPELINE: 8,
      APERTIUM_SEGMENTS_PER_PIPELINE: 50_000,
      APERTIUM_ALLOCATOR: 'system',
      PORT: 8080,
    });
  });

  it('reads an ordered list of engines and per-pair routes', () => {
    const config = loadConfig(EngineConfig, {
      TRANSLATION_ENGINES: 'apertium, libretranslate,deepl',
      TRANSLATION_ROUTES: 'en-de:deepl,en-fr:libretranslate',
      LIBRETRANSLATE_URL: 'http://127.0.0.1:5000',
      DEEPL_API_KEY: 'secret:fx',
      ENGINE_PAIRS_TTL_MS: '5000',
    });
    expect(config).toMatchObject({
      TRANSLATION_ENGINES: ['apertium', 'libretranslate', 'deepl'],
      TRANSLATION_ROUTES: ['en-de:deepl', 'en-fr:libretranslate'],
      ENGINE_PAIRS_TTL_MS: 5000,
    });
  });

  const bothRemote = { LIBRETRANSLATE_URL: 'http://127.0.0.1:5000', DEEPL_API_KEY: 'secret:fx' };
  const required = (name: string, engine: string) => `${name} is required when ${engine} is the engine (TRANSLATION_ENGINE or TRANSLATION_ENGINES)`;

  it.each([
    [{ TRANSLATION_ENGINE: 'google' }, 'TRANSLATION_ENGINE="google"'],
    [{ TRANSLATION_ENGINE: 'deepl' }, required('DEEPL_API_KEY', 'deepl')],
    [{ TRANSLATION_ENGINE: 'libretranslate' }, 'LIBRETRANSLATE_URL must be an http(s) URL; it is required when libretranslate is an engine (TRANSLATION_ENGINE or TRANSLATION_ENGINES)'],
    [{ TRANSLATION_ENGINES: 'apertium,deepl' }, required('DEEPL_API_KEY', 'deepl')],
    [{ TRANSLATION_ENGINES: 'apertium,libretranslate' }, 'LIBRETRANSLATE_URL must be an http(s) URL; it is required when libretranslate is an engine'],
    [{ TRANSLATION_ENGINES: 'apertium,google', ...bothRemote }, 'TRANSLATION_ENGINES=["apertium","google"]'],
    [{ TRANSLATION_ENGINES: 'apertium,apertium' }, 'TRANSLATION_ENGINES=["apertium","apertium"]'],
    [{ TRANSLATION_ENGINES: ',' }, 'TRANSLATION_ENGINES=[]'],
    [{ TRANSLATION_ROUTES: 'en-de:google' }, 'en-de:google: google is not one of the configured engines (apertium)'],
    [{ TRANSLATION_ENGINES: 'apertium,libretranslate', TRANSLATION_ROUTES: 'en-de:deepl', ...bothRemote }, 'en-de:deepl: deepl is not one of the configured engines (apertium, libretranslate)'],
    [{ TRANSLATION_ROUTES: 'en-xx:apertium' }, 'en-xx:apertium: en-xx is not a pair of two official EU languages'],
    [{ TRANSLATION_ROUTES: 'en:apertium' }, 'en:apertium is not of the form source-target:engine (e.g. en-de:deepl)'],
    [{ ENGINE_PAIRS_TTL_MS: '10' }, 'ENGINE_PAIRS_TTL_MS=10'],
    [{ LIBRETRANSLATE_URL: 'ftp://lt.example.org' }, 'LIBRETRANSLATE_URL="ftp://lt.example.org"'],
    [{ DEEPL_SERVER_URL: 'not a url' }, 'DEEPL_SERVER_URL="not a url"'],
    [{ APERTIUM_PIVOT_LANGUAGE: 'ca' }, 'APERTIUM_PIVOT_LANGUAGE="ca"'],
    [{ APERTIUM_PIPELINES_PER_MODE: '0' }, 'APERTIUM_PIPELINES_PER_MODE=0'],
    [{ APERTIUM_REQUESTS_PER_PIPELINE: '0' }, 'APERTIUM_REQUESTS_PER_PIPELINE=0'],
    [{ APERTIUM_ALLOCATOR: 'jemalloc' }, 'APERTIUM_ALLOCATOR="jemalloc"'],
    [{ APERTIUM_SEGMENTS_PER_PIPELINE: '0' }, 'APERTIUM_SEGMENTS_PER_PIPELINE=0'],
  ])('refuses %j, naming the variable', (env, message) => {
    expect(() => loadConfig(EngineConfig, env)).toThrow(ConfigError);
    expect(() => loadConfig(EngineConfig, env)).toThrow(message);
  });
});

describe('EnginesModule', () => {
  it('routes to Apertium by default and stops its processes when the app closes', async () => {
    const moduleRef = await Test.createTestingModule({ imports: [EnginesModule.forRoot(loadConfig(EngineConfig, {}))] }).compile();
    const router = moduleRef.get(EngineRouter);
    const [engine] = router.engines;
    expect(router.engines).toHaveLength(1);
    expect(engine).toBeInstanceOf(ApertiumEngine);
    const { segments: [spanish], engine: name } = await router.translate({ source: 'en', target: 'es', segments: ['The dog is sleeping.'] });
    expect(spanish).toContain('perro');
    expect(name).toBe('apertium');

    const pids = Object.values((engine as ApertiumEngine).pipelines()).flat(2);
    expect(pids.length).toBeGreaterThan(0);
    await moduleRef.close();
    expect(pids.filter(isProcessRunning)).toEqual([]);
  });

  it('builds each engine by its name', () => {
    const config = loadConfig(EngineConfig, { DEEPL_API_KEY: 'secret:fx', LIBRETRANSLATE_URL: 'http://127.0.0.1:5000' });
    const deepl = createEngine('deepl', config);
    expect(deepl).toBeInstanceOf(DeeplEngine);
    expect(deepl.name).toBe('deepl');
    const libre = createEngine('libretranslate', config);
    expect(libre).toBeInstanceOf(LibreTranslateEngine);
    expect(libre.name).toBe('libretranslate');
  });

  it('routes over TRANSLATION_ENGINES in their order, or the one TRANSLATION_ENGINE', () => {
    const names = (env: Record<string, string>) => createRouter(loadConfig(EngineConfig, env)).engines.map((engine) => engine.name);
    expect(names({ TRANSLATION_ENGINES: 'libretranslate,deepl', TRANSLATION_ENGINE: 'apertium', DEEPL_API_KEY: 'k', LIBRETRANSLATE_URL: 'http://127.0.0.1:5000' })).toEqual([
      'libretranslate',
      'deepl',
    ]);
    expect(names({ TRANSLATION_ENGINE: 'deepl', DEEPL_API_KEY: 'k' })).toEqual(['deepl']);
  });
});
