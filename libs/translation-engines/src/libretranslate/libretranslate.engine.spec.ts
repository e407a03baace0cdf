import { loadConfig } from '@platform/service-kit';
import { startLibreTranslateStandIn, type StandIn } from '@platform/testing';
import { randomBytes } from 'node:crypto';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { EngineConfig } from '../engine.config';
import { EngineError, UnsupportedPairError } from '../translation-engine';
import { LibreTranslateEngine, type LibreTranslateOptions } from './libretranslate.engine';

describe('LibreTranslateEngine against a LibreTranslate stand-in', () => {
  const apiKey = randomBytes(12).toString('hex');
  let libre: StandIn;

  const engine = (env: Record<string, string> = {}, options?: LibreTranslateOptions) =>
    new LibreTranslateEngine(
      loadConfig(EngineConfig, { TRANSLATION_ENGINE: 'libretranslate', LIBRETRANSLATE_URL: libre.url, LIBRETRANSLATE_API_KEY: apiKey, ...env }),
      options,
    );
  const translateCalls = () => libre.requestsTo('/translate');

  beforeEach(async () => {
    libre = await startLibreTranslateStandIn({ apiKey });
  });
  afterEach(async () => {
    await libre.stop();
  });

  it('translates several segments in one HTML request and keeps their order', async () => {
    const segments = ['Hello world', 'The cat is sleeping', 'Good morning'];

    await expect(engine().translate({ source: 'en', target: 'de', segments })).resolves.toEqual(['Hallo Welt', 'Die Katze schläft', 'Guten Morgen']);

    expect(translateCalls().map((call) => call.json)).toEqual([{ q: segments, source: 'en', target: 'de', format: 'html', api_key: apiKey }]);
  });

  it('sends no api_key when none is configured', async () => {
    await libre.stop();
    libre = await startLibreTranslateStandIn();

    await expect(engine({ LIBRETRANSLATE_API_KEY: '' }).translate({ source: 'en', target: 'fr', segments: ['Hello'] })).resolves.toEqual(['Bonjour']);
    expect(translateCalls()[0].json).toEqual({ q: ['Hello'], source: 'en', target: 'fr', format: 'html' });
  });

  it('gives placeholders and escaped text back in the form they were sent', async () => {
    // The server answers `<x id="2"></x>` and decodes `&amp;`; the engine undoes both.
    const segments = ['<g id="1">Hello</g> <x id="2"/> world', 'Tom &amp; Jerry &lt;3<x id="3"/>'];

    await expect(engine().translate({ source: 'en', target: 'de', segments })).resolves.toEqual([
      '<g id="1">Hallo</g> <x id="2"/> Welt',
      'Tom &amp; Jerry &lt;3<x id="3"/>',
    ]);
  });

  it('answers an empty request without calling the server', async () => {
    await expect(engine().translate({ source: 'en', target: 'de', segments: [] })).resolves.toEqual([]);
    expect(translateCalls()).toHaveLength(0);
  });

  it('offers the installed pairs between EU languages only, and caches them', async () => {
    const libreEngine = engine();

    const pairs = await libreEngine.pairs();
    await libreEngine.pairs();

    expect(pairs).toEqual([
      { source: 'de', target: 'en' },
      { source: 'de', target: 'fr' },
      { source: 'en', target: 'de' },
      { source: 'en', target: 'es' },
      { source: 'en', target: 'fr' },
      { source: 'en', target: 'it' },
      { source: 'es', target: 'en' },
      { source: 'fr', target: 'de' },
      { source: 'fr', target: 'en' },
      { source: 'it', target: 'en' },
    ]);
    expect(libre.requestsTo('/languages')).toHaveLength(1);
  });

  it('refuses a pair the server has no model for, or outside the EU languages', async () => {
    const libreEngine = engine();

    await expect(libreEngine.translate({ source: 'de', target: 'es', segments: ['Hallo'] })).rejects.toStrictEqual(
      new UnsupportedPairError({ source: 'de', target: 'es' }),
    );
    await expect(libreEngine.translate({ source: 'en', target: 'ja', segments: ['Hello'] })).rejects.toBeInstanceOf(UnsupportedPairError);
    expect(translateCalls()).toHaveLength(0);
  });

  it('reports a rejected key as an engine error that does not contain the key', async () => {
    const wrongKey = randomBytes(12).toString('hex');

    const error = await engine({ LIBRETRANSLATE_API_KEY: wrongKey })
      .translate({ source: 'en', target: 'de', segments: ['Hello'] })
      .catch((e: unknown) => e);

    expect(error).toBeInstanceOf(EngineError);
    expect((error as Error).message).toBe('LibreTranslate answered /translate with 403: Invalid API key');
  });

  it('reports a server error with its message, without repeating the key the server echoed', async () => {
    libre.disrupt({ path: '/translate', status: 500, body: { error: `Cannot translate text: model crashed for ${apiKey}` } });

    const error = await engine()
      .translate({ source: 'en', target: 'de', segments: ['Hello'] })
      .catch((e: unknown) => e);

    expect(error).toBeInstanceOf(EngineError);
    expect((error as Error).message).toBe('LibreTranslate answered /translate with 500: Cannot translate text: model crashed for [redacted]');
  });

  it('reports an answer that is not JSON as an engine error', async () => {
    libre.disrupt({ path: '/languages', status: 502, body: '<html>Bad Gateway</html>' });

    await expect(engine().pairs()).rejects.toStrictEqual(new EngineError('LibreTranslate answered /languages with 502: <html>Bad Gateway</html>'));
  });

  it('waits as Retry-After says after 429 and then succeeds', async () => {
    libre.disrupt({ path: '/translate', status: 429, headers: { 'retry-after': '1' }, body: { error: 'Slowdown: 30 per 1 minute' } });

    await expect(engine().translate({ source: 'en', target: 'de', segments: ['Hello'] })).resolves.toEqual(['Hallo']);
    expect(translateCalls()).toHaveLength(2);
  });

  it('gives up after two retries when the server keeps answering 429', async () => {
    libre.disrupt({ path: '/translate', status: 429, times: 5, headers: { 'retry-after': '0' }, body: { error: 'Slowdown: 30 per 1 minute' } });

    await expect(engine().translate({ source: 'en', target: 'de', segments: ['Hello'] })).rejects.toStrictEqual(
      new EngineError('LibreTranslate answered /translate with 429: Slowdown: 30 per 1 minute'),
    );
    expect(translateCalls()).toHaveLength(3);
  });

  it('gives up on a server that does not answer in time', async () => {
    libre.disrupt({ path: '/translate', delayMs: 2_000 });

    await expect(engine({}, { timeoutMs: 200 }).translate({ source: 'en', target: 'de', segments: ['Hello'] })).rejects.toStrictEqual(
      new EngineError('LibreTranslate did not answer /translate within 200 ms'),
    );
  });

  it('reports an unreachable server as an engine error', async () => {
    const gone = await startLibreTranslateStandIn();
    await gone.stop();

    const error = await engine({ LIBRETRANSLATE_URL: gone.url })
      .pairs()
      .catch((e: unknown) => e);

    expect(error).toBeInstanceOf(EngineError);
    expect((error as Error).message).toMatch(/^LibreTranslate is unreachable: fetch failed \(.*ECONNREFUSED/);
  });

  it('requires a server URL', () => {
    expect(() => new LibreTranslateEngine(new EngineConfig())).toThrow('LIBRETRANSLATE_URL is required when libretranslate is an engine');
  });
});
