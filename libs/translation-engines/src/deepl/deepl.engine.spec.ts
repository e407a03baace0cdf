import { EU_LANGUAGES } from '@platform/contracts';
import { loadConfig } from '@platform/service-kit';
import { startDeeplStandIn, type StandIn } from '@platform/testing';
import { randomBytes } from 'node:crypto';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { EngineConfig } from '../engine.config';
import { EngineError, UnsupportedPairError } from '../translation-engine';
import { DeeplEngine } from './deepl.engine';

describe('DeeplEngine against a DeepL stand-in', () => {
  const authKey = `${randomBytes(12).toString('hex')}:fx`;
  let deepl: StandIn;

  const engine = (key = authKey, serverUrl = deepl.url) =>
    new DeeplEngine(loadConfig(EngineConfig, { TRANSLATION_ENGINE: 'deepl', DEEPL_API_KEY: key, DEEPL_SERVER_URL: serverUrl }));
  const translateCalls = () => deepl.requestsTo('/v2/translate');

  beforeEach(async () => {
    deepl = await startDeeplStandIn({ authKey });
  });
  afterEach(async () => {
    await deepl.stop();
  });

  it('translates several segments in order with XML tag handling that keeps each segment one unit', async () => {
    const segments = ['Hello world', 'The cat is sleeping', 'Good morning'];

    await expect(engine().translate({ source: 'en', target: 'de', segments })).resolves.toEqual(['Hallo Welt', 'Die Katze schläft', 'Guten Morgen']);

    const [call] = translateCalls();
    expect(call.headers.authorization).toBe(`DeepL-Auth-Key ${authKey}`);
    expect(call.params.getAll('text')).toEqual(segments);
    expect(call.params.get('source_lang')?.toUpperCase()).toBe('EN');
    expect(call.params.get('target_lang')?.toUpperCase()).toBe('DE');
    expect(call.params.get('tag_handling')).toBe('xml');
    expect(call.params.get('ignore_tags')).toBe('x');
    expect(call.params.get('non_splitting_tags')).toBe('g,x');
    expect(call.params.get('outline_detection')).toBe('0');
    expect(call.params.get('split_sentences')).toBe('nonewlines');
  });

  it('gives placeholder markup back unchanged', async () => {
    const segments = ['<g id="1">Hello</g> <x id="2"/> world', 'The cat is sleeping<x id="3"/>'];

    await expect(engine().translate({ source: 'en', target: 'de', segments })).resolves.toEqual([
      '<g id="1">Hallo</g> <x id="2"/> Welt',
      'Die Katze schläft<x id="3"/>',
    ]);
  });

  it('asks for British English and European Portuguese when the target is en or pt', async () => {
    const deeplEngine = engine();

    await expect(deeplEngine.translate({ source: 'de', target: 'en', segments: ['Guten Morgen'] })).resolves.toEqual(['Good morning']);
    await deeplEngine.translate({ source: 'en', target: 'pt', segments: ['Hello'] });

    expect(translateCalls().map((call) => call.params.get('target_lang')?.toUpperCase())).toEqual(['EN-GB', 'PT-PT']);
  });

  it('keeps empty and blank segments in place without sending them', async () => {
    await expect(engine().translate({ source: 'en', target: 'de', segments: ['', 'Hello', '  '] })).resolves.toEqual(['', 'Hallo', '  ']);

    expect(translateCalls().map((call) => call.params.getAll('text'))).toEqual([['Hello']]);
  });

  it('splits many segments into requests of at most 50 texts and keeps their order', async () => {
    const segments = Array.from({ length: 120 }, (_, i) => `Hello world ${i}`);

    const translations = await engine().translate({ source: 'en', target: 'de', segments });

    expect(translations).toEqual(segments.map((_, i) => `Hallo Welt ${i}`));
    expect(translateCalls().map((call) => call.params.getAll('text').length)).toEqual([50, 50, 20]);
  });

  it('offers every source with every target among the EU languages only, and caches the lists', async () => {
    const deeplEngine = engine();

    const pairs = await deeplEngine.pairs();
    await deeplEngine.pairs();

    const eu = new Set<string>(EU_LANGUAGES);
    expect(pairs.every(({ source, target }) => eu.has(source) && eu.has(target) && source !== target)).toBe(true);
    expect(pairs).toContainEqual({ source: 'en', target: 'de' });
    expect(pairs).toContainEqual({ source: 'de', target: 'en' });
    expect(pairs).toContainEqual({ source: 'fr', target: 'pt' });
    expect(pairs.some(({ source, target }) => [source, target].some((code) => ['ja', 'uk', 'zh', 'hr'].includes(code)))).toBe(false);
    // 21 of the stand-in's languages are EU languages, each available as source and target.
    expect(pairs).toHaveLength(21 * 20);
    expect(deepl.requestsTo('/v2/languages')).toHaveLength(2);
  });

  it('refuses a pair outside the offered ones without asking DeepL to translate', async () => {
    const deeplEngine = engine();

    await expect(deeplEngine.translate({ source: 'en', target: 'ja', segments: ['Hello'] })).rejects.toBeInstanceOf(UnsupportedPairError);
    await expect(deeplEngine.translate({ source: 'en', target: 'hr', segments: ['Hello'] })).rejects.toStrictEqual(
      new UnsupportedPairError({ source: 'en', target: 'hr' }),
    );
    expect(translateCalls()).toHaveLength(0);
  });

  it('reports a rejected key as an engine error that does not contain the key', async () => {
    const wrongKey = `${randomBytes(12).toString('hex')}:fx`;

    const error = await engine(wrongKey)
      .translate({ source: 'en', target: 'de', segments: ['Hello'] })
      .catch((e: unknown) => e);

    expect(error).toBeInstanceOf(EngineError);
    expect((error as Error).message).toMatch(/DeepL rejected the configured API key \(403\)/);
    expect((error as Error).message).not.toContain(wrongKey);
  });

  it('reports an exhausted DeepL quota (456) as an engine error', async () => {
    deepl.disrupt({ path: '/v2/translate', status: 456, body: { message: 'Quota exceeded' } });

    await expect(engine().translate({ source: 'en', target: 'de', segments: ['Hello'] })).rejects.toStrictEqual(
      new EngineError("DeepL's character quota for this billing period is used up (456)"),
    );
  });

  it('retries a server error, then reports it without repeating the key the server echoed', async () => {
    deepl.disrupt({ path: '/v2/translate', status: 500, times: 3, body: { message: `backend failed for ${authKey}` } });

    const error = await engine()
      .translate({ source: 'en', target: 'de', segments: ['Hello'] })
      .catch((e: unknown) => e);

    expect(error).toBeInstanceOf(EngineError);
    expect((error as Error).message).toMatch(/^DeepL request failed: .*500/);
    expect((error as Error).message).toContain('backend failed for [redacted]');
    expect((error as Error).message).not.toContain(authKey);
    expect(translateCalls()).toHaveLength(3);
  });

  it('retries after 429 Too Many Requests and then succeeds', async () => {
    deepl.disrupt({ path: '/v2/translate', status: 429, body: { message: 'Too many requests' } });

    await expect(engine().translate({ source: 'en', target: 'de', segments: ['Hello'] })).resolves.toEqual(['Hallo']);
    expect(translateCalls()).toHaveLength(2);
  });

  it('gives up after two retries when DeepL keeps answering 429', async () => {
    deepl.disrupt({ path: '/v2/translate', status: 429, times: 5, body: { message: 'Too many requests' } });

    await expect(engine().translate({ source: 'en', target: 'de', segments: ['Hello'] })).rejects.toStrictEqual(
      new EngineError('DeepL is still answering 429 Too Many Requests after retries'),
    );
    expect(translateCalls()).toHaveLength(3);
  });

  it('reports an unreachable server as an engine error', async () => {
    const gone = await startDeeplStandIn({ authKey });
    await gone.stop();

    const error = await engine(authKey, gone.url)
      .pairs()
      .catch((e: unknown) => e);

    expect(error).toBeInstanceOf(EngineError);
    expect((error as Error).message).toMatch(/^DeepL is unreachable: .*ECONNREFUSED/);
  });

  it('requires an API key', () => {
    expect(() => new DeeplEngine(new EngineConfig())).toThrow('DEEPL_API_KEY is required when deepl is an engine');
  });
});
