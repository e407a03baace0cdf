import { loadConfig, MetricsRegistry } from '@platform/service-kit';
import { modelsBetween, startLibreTranslateStandIn, type StandIn } from '@platform/testing';
import { afterAll, afterEach, beforeAll, describe, expect, it } from 'vitest';
import { EngineConfig } from '../engine.config';
import { createRouter } from '../engines.module';
import { EngineError, UnsupportedPairError } from '../translation-engine';
import type { EngineRouter } from './engine-router';

const HELLO = { source: 'en', segments: ['Hello world'] };
const has = (pairs: { source: string; target: string }[], source: string, target: string) =>
  pairs.some((pair) => pair.source === source && pair.target === target);

describe('EngineRouter over Apertium and a LibreTranslate stand-in', () => {
  let libre: StandIn;
  const routers: EngineRouter[] = [];
  const router = (env: Record<string, string>, metrics?: MetricsRegistry) => {
    const created = createRouter(loadConfig(EngineConfig, { LIBRETRANSLATE_URL: libre.url, ...env }), metrics);
    routers.push(created);
    return created;
  };

  beforeAll(async () => {
    libre = await startLibreTranslateStandIn({ models: modelsBetween(['de', 'en', 'es', 'fr']) });
  });
  afterEach(async () => {
    await Promise.all(routers.splice(0).map((created) => created.onApplicationShutdown()));
  });
  afterAll(() => libre.stop());

  it('offers the union of both engines, once each and without pivot marks', async () => {
    const pairs = await router({ TRANSLATION_ENGINES: 'apertium,libretranslate' }).pairs();
    expect(has(pairs, 'en', 'de')).toBe(true); // LibreTranslate only
    expect(has(pairs, 'sv', 'da')).toBe(true); // Apertium only
    expect(pairs.filter((pair) => pair.source === 'en' && pair.target === 'es')).toEqual([{ source: 'en', target: 'es' }]);
    expect(pairs.some((pair) => 'via' in pair)).toBe(false);
  });

  it('gives a pair to the first engine that does it directly, pivoting only when none does', async () => {
    const both = router({ TRANSLATION_ENGINES: 'apertium,libretranslate' });
    expect((await both.translate({ ...HELLO, target: 'es' })).engine).toBe('apertium');
    expect(await both.translate({ ...HELLO, target: 'de' })).toEqual({ segments: ['Hallo Welt'], engine: 'libretranslate' });
    // Apertium does en->fr only through Spanish; LibreTranslate has a model of its own.
    expect(await both.translate({ ...HELLO, target: 'fr' })).toEqual({ segments: ['Bonjour monde'], engine: 'libretranslate' });
    // Nobody but Apertium's pivot does en->pt.
    expect((await both.translate({ ...HELLO, target: 'pt' })).engine).toBe('apertium');

    const reversed = router({ TRANSLATION_ENGINES: 'libretranslate,apertium' });
    expect((await reversed.translate({ ...HELLO, target: 'es' })).engine).toBe('libretranslate');
  });

  it('sends a routed pair to its engine first', async () => {
    const routed = router({ TRANSLATION_ENGINES: 'apertium,libretranslate', TRANSLATION_ROUTES: 'en-es:libretranslate' });
    expect((await routed.translate({ ...HELLO, target: 'es' })).engine).toBe('libretranslate');
    expect((await routed.translate({ source: 'es', segments: ['Hola'], target: 'en' })).engine).toBe('apertium');
  });

  it('lets the next engine take over when the chosen one fails, and fails only when all have, counting calls and failovers', async () => {
    const metrics = new MetricsRegistry();
    const reversed = router({ TRANSLATION_ENGINES: 'libretranslate,apertium' }, metrics);
    libre.disrupt({ path: '/translate', status: 502, body: 'bad gateway' });
    const taken = await reversed.translate({ source: 'en', target: 'es', segments: ['The dog is sleeping.'] });
    expect(taken.engine).toBe('apertium');
    expect(taken.segments[0]).toContain('perro');

    libre.disrupt({ path: '/translate', status: 500 });
    await expect(reversed.translate({ ...HELLO, target: 'de' })).rejects.toBeInstanceOf(EngineError);
    await expect(reversed.translate({ ...HELLO, target: 'ga' })).rejects.toBeInstanceOf(UnsupportedPairError);

    const samples = async (name: string) =>
      Object.fromEntries((await metrics.registry.getSingleMetric(name)!.get()).values.filter((v) => !('le' in v.labels)).map((v) => [JSON.stringify(v.labels), v.value]));
    expect(await samples('translation_engine_requests_total')).toEqual({
      [JSON.stringify({ engine: 'libretranslate', outcome: 'ok' })]: 0,
      [JSON.stringify({ engine: 'libretranslate', outcome: 'error' })]: 2,
      [JSON.stringify({ engine: 'libretranslate', outcome: 'unsupported' })]: 0,
      [JSON.stringify({ engine: 'apertium', outcome: 'ok' })]: 1,
      [JSON.stringify({ engine: 'apertium', outcome: 'error' })]: 0,
      [JSON.stringify({ engine: 'apertium', outcome: 'unsupported' })]: 0,
    });
    // en->de goes to LibreTranslate alone: nobody takes over there.
    expect(await samples('translation_engine_failovers_total')).toEqual({
      [JSON.stringify({ from: 'libretranslate', to: 'apertium' })]: 1,
      [JSON.stringify({ from: 'apertium', to: 'libretranslate' })]: 0,
    });
  });
});

describe('EngineRouter when LibreTranslate stops and comes back', () => {
  it('keeps its last pairs while it is down (translating them fails) and shows new models once it is back', async () => {
    let libre = await startLibreTranslateStandIn({ models: modelsBetween(['en', 'de']) });
    const port = Number(new URL(libre.url).port);
    const router = createRouter(loadConfig(EngineConfig, { TRANSLATION_ENGINES: 'apertium,libretranslate', LIBRETRANSLATE_URL: libre.url }));
    try {
      expect(has(await router.pairs(), 'en', 'de')).toBe(true);
      await libre.stop();

      await expect(router.translate({ ...HELLO, target: 'de' })).rejects.toThrow(/LibreTranslate is unreachable/);
      const whileDown = await router.pairs();
      expect(has(whileDown, 'en', 'de')).toBe(true);
      expect(has(whileDown, 'en', 'es')).toBe(true);
      expect((await router.translate({ ...HELLO, target: 'es' })).engine).toBe('apertium');

      libre = await startLibreTranslateStandIn({ port, models: modelsBetween(['en', 'de', 'fi']) });
      expect(await router.translate({ ...HELLO, target: 'de' })).toEqual({ segments: ['Hallo Welt'], engine: 'libretranslate' });
      expect(has(await router.pairs(), 'en', 'fi')).toBe(true);
    } finally {
      await router.onApplicationShutdown();
      await libre.stop();
    }
  });

  it('fails the pairs only when no engine has ever listed any', async () => {
    const gone = await startLibreTranslateStandIn();
    await gone.stop();
    const router = createRouter(loadConfig(EngineConfig, { TRANSLATION_ENGINE: 'libretranslate', LIBRETRANSLATE_URL: gone.url }));
    await expect(router.pairs()).rejects.toBeInstanceOf(EngineError);
  });
});
