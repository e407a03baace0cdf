import { Test } from '@nestjs/testing';
import { ConfigError, DatabaseRedisConfig, loadConfig } from '@platform/service-kit';
import { isProcessRunning } from '@platform/testing';
import { describe, expect, it } from 'vitest';
import { ApertiumEngine } from './apertium/apertium.engine';
import { DeeplEngine } from './deepl/deepl.engine';
import { EngineConfig, withEngineConfig } from './engine.config';
import { createEngine, EnginesModule } from './engines.module';
import { LibreTranslateEngine } from './libretranslate/libretranslate.engine';
import { ENGINE, type TranslationEngine } from './translation-engine';


describe('EngineConfig', () => {
  it('defaults to Apertium pivoting through Spanish', () => {
    expect(loadConfig(EngineConfig, {})).toMatchObject({
      TRANSLATION_ENGINE: 'apertium',
      APERTIUM_PIVOT_LANGUAGE: 'es',
      APERTIUM_PIPELINES_PER_MODE: 1,
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
      PORT: 8080,
    });
  });

  it.each([
    [{ TRANSLATION_ENGINE: 'google' }, 'TRANSLATION_ENGINE="google"'],
    [{ TRANSLATION_ENGINE: 'deepl' }, 'DEEPL_API_KEY is required when TRANSLATION_ENGINE=deepl'],
    [{ TRANSLATION_ENGINE: 'libretranslate' }, 'LIBRETRANSLATE_URL must be an http(s) URL; it is required when TRANSLATION_ENGINE=libretranslate'],
    [{ LIBRETRANSLATE_URL: 'ftp://lt.example.org' }, 'LIBRETRANSLATE_URL="ftp://lt.example.org"'],
    [{ DEEPL_SERVER_URL: 'not a url' }, 'DEEPL_SERVER_URL="not a url"'],
    [{ APERTIUM_PIVOT_LANGUAGE: 'ca' }, 'APERTIUM_PIVOT_LANGUAGE="ca"'],
    [{ APERTIUM_PIPELINES_PER_MODE: '0' }, 'APERTIUM_PIPELINES_PER_MODE=0'],
  ])('refuses %j, naming the variable', (env, message) => {
    expect(() => loadConfig(EngineConfig, env)).toThrow(ConfigError);
    expect(() => loadConfig(EngineConfig, env)).toThrow(message);
  });
});

describe('EnginesModule', () => {
  it('provides Apertium by default and stops its processes when the app closes', async () => {
    const moduleRef = await Test.createTestingModule({ imports: [EnginesModule.forRoot(loadConfig(EngineConfig, {}))] }).compile();
    const engine = moduleRef.get<TranslationEngine>(ENGINE);
    expect(engine).toBeInstanceOf(ApertiumEngine);
    const [spanish] = await engine.translate({ source: 'en', target: 'es', segments: ['The dog is sleeping.'] });
    expect(spanish).toContain('perro');

    const pids = Object.values((engine as ApertiumEngine).pipelines()).flat(2);
    expect(pids.length).toBeGreaterThan(0);
    await moduleRef.close();
    expect(pids.filter(isProcessRunning)).toEqual([]);
  });

  it('builds the engine TRANSLATION_ENGINE names', () => {
    const deepl = createEngine(loadConfig(EngineConfig, { TRANSLATION_ENGINE: 'deepl', DEEPL_API_KEY: 'secret:fx' }));
    expect(deepl).toBeInstanceOf(DeeplEngine);
    expect(deepl.name).toBe('deepl');
    const libre = createEngine(loadConfig(EngineConfig, { TRANSLATION_ENGINE: 'libretranslate', LIBRETRANSLATE_URL: 'http://127.0.0.1:5000' }));
    expect(libre).toBeInstanceOf(LibreTranslateEngine);
    expect(libre.name).toBe('libretranslate');
  });
});
