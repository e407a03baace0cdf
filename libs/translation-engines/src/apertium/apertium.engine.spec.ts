import { mkdtempSync, readFileSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { EU_LANGUAGES } from '@platform/contracts';
import { isProcessRunning } from '@platform/testing';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { EngineError, UnsupportedPairError } from '../translation-engine';
import { ApertiumEngine } from './apertium.engine';

// Real Apertium from the Debian packages (.ci/run installs them).
const SENTENCE = 'The cat is sleeping on the red sofa.';
const MARKUP = 'Hello <g id="1">world</g>, <x id="2"/> has arrived.';


/** The stage processes of the single warm pipeline of `mode`, after a request has started it. */
async function warmPipeline(engine: ApertiumEngine, source: string, target: string, mode: string): Promise<number[]> {
  await engine.translate({ source, target, segments: ['Good morning.'] });
  const pipelines = engine.pipelines()[mode];
  expect(pipelines).toHaveLength(1);
  return pipelines[0];
}

describe('ApertiumEngine', () => {
  let engine: ApertiumEngine;

  beforeAll(() => {
    engine = new ApertiumEngine();
  });

  afterAll(async () => {
    await engine.close();
  });

  it('offers the installed modes between EU languages, the standard variants, and pivots through Spanish', async () => {
    const pairs = (await engine.pairs()).map(({ source, target }) => `${source}-${target}`);
    expect(pairs).toEqual(expect.arrayContaining(['en-es', 'es-en', 'fr-es', 'es-pt', 'es-it', 'ro-es', 'sv-da', 'sl-hr']));
    // Through es: en->es + es->fr, ro->es + es->en.
    expect(pairs).toEqual(expect.arrayContaining(['en-fr', 'fr-en', 'en-pt', 'it-fr', 'ro-en']));
    const all = await engine.pairs();
    expect(all.find((pair) => pair.source === 'en' && pair.target === 'fr')).toEqual({ source: 'en', target: 'fr', via: 'es' });
    expect(all.find((pair) => pair.source === 'en' && pair.target === 'es')).toEqual({ source: 'en', target: 'es' });
    // No mode es->ro is installed, so nothing reaches Romanian.
    expect(pairs.some((pair) => pair.endsWith('-ro'))).toBe(false);
    expect(pairs).toEqual([...new Set(pairs)].sort());
    for (const pair of pairs) {
      const [source, target] = pair.split('-');
      expect(EU_LANGUAGES).toContain(source);
      expect(EU_LANGUAGES).toContain(target);
    }
    const modes = Object.fromEntries(engine.modes.map(({ source, target, mode }) => [`${source}-${target}`, mode]));
    expect(modes).toMatchObject({ 'en-es': 'eng-spa', 'es-en': 'spa-eng', 'es-pt': 'es-pt', 'sl-hr': 'slv-hbs_HR', 'hr-sl': 'hbs-slv' });
  });

  it('translates English into real Spanish', async () => {
    const [spanish] = await engine.translate({ source: 'en', target: 'es', segments: [SENTENCE] });
    expect(spanish).toContain('gato');
    expect(spanish).toContain('sofá');
    expect(spanish).toMatch(/\.$/);
  });

  it('translates English into French through Spanish', async () => {
    const [french] = await engine.translate({ source: 'en', target: 'fr', segments: [SENTENCE] });
    expect(french).toContain('chat');
    expect(french).toContain('rouge');
  });

  it('gives placeholder markup back exactly, on direct and pivoted pairs', async () => {
    for (const target of ['es', 'fr']) {
      const [translation] = await engine.translate({ source: 'en', target, segments: [MARKUP] });
      expect(translation).toContain('<g id="1">');
      expect(translation).toContain('</g>');
      expect(translation).toContain('<x id="2"/>');
      expect(translation.match(/<[^>]*>/g)).toEqual(['<g id="1">', '</g>', '<x id="2"/>']);
    }
  });

  it('returns clean text for unknown words, without Apertium marks', async () => {
    const segments = ['Zorblax quibbles with the flumphs near Glimmerdale.', 'The snarfling wug ate three blorks.'];
    for (const target of ['es', 'fr', 'it']) {
      const translations = await engine.translate({ source: 'en', target, segments });
      expect(translations.join(' ')).not.toMatch(/[*#@]/);
      expect(translations[0]).toContain('Zorblax');
    }
  });

  it('keeps characters the stream format reserves, and entities', async () => {
    const [translation] = await engine.translate({ source: 'en', target: 'es', segments: ['Tom &amp; Jerry say {x} ^ $ < > & \\ 5*3 &lt;3'] });
    for (const kept of ['&amp;', '{x}', '^', '$', '<', '>', '&', '\\', '5*3', '&lt;3']) expect(translation).toContain(kept);
  });

  it('runs the mode without the word-bound blank helpers, and double brackets still come back as sent', async () => {
    const stages = await warmPipeline(engine, 'en', 'es', 'eng-spa');
    const programs = stages.map((pid) => path.basename(readFileSync(`/proc/${pid}/cmdline`, 'utf8').split('\0')[0]));
    expect(programs).toContain('apertium-transfer');
    expect(programs.filter((program) => program.startsWith('apertium-wblank'))).toEqual([]);
    const [translation] = await engine.translate({ source: 'en', target: 'es', segments: ['The [[b]] house [[/]] and [[x]]the dog]].'] });
    for (const kept of ['[[b]]', '[[/]]', '[[x]]', ']]']) expect(translation).toContain(kept);
    expect(translation).toContain('casa');
  });

  it('runs every stage on tcmalloc, or on the C library\'s malloc when asked, with the same translations', async () => {
    const allocators = (stages: number[]) => stages.map((pid) => readFileSync(`/proc/${pid}/maps`, 'utf8').includes('libtcmalloc_minimal'));
    const stages = await warmPipeline(engine, 'en', 'es', 'eng-spa');
    expect(allocators(stages)).toEqual(stages.map(() => true));
    const texts = ['The cat is sleeping on the red sofa.', 'I have seen the big house of my friend.', MARKUP];
    const system = new ApertiumEngine({ allocator: 'system' });
    try {
      expect(allocators(await warmPipeline(system, 'en', 'es', 'eng-spa'))).toEqual(stages.map(() => false));
      expect(await system.translate({ source: 'en', target: 'es', segments: texts })).toEqual(await engine.translate({ source: 'en', target: 'es', segments: texts }));
    } finally {
      await system.close();
    }
  });

  it('answers each segment in place with its own surrounding whitespace, leaving blank ones as they are', async () => {
    const segments = ['The house.', '', '  ', 'The dog.', ' I have seen the big house.\n'];
    const translations = await engine.translate({ source: 'en', target: 'es', segments });
    expect(translations).toHaveLength(5);
    expect(translations[0]).toMatch(/^La casa\.$/);
    expect(translations.slice(1, 3)).toEqual(['', '  ']);
    expect(translations[3]).toMatch(/^El perro\.$/);
    // "I" is dropped in Spanish; its blank must not double the leading space.
    expect(translations[4]).toMatch(/^ He visto .*casa.*\.\n$/);
    expect(await engine.translate({ source: 'en', target: 'es', segments: [] })).toEqual([]);
  });

  it('serves many concurrent requests on one pipeline, each with its own result', async () => {
    const numbers = Array.from({ length: 30 }, (_, i) => 1000 + i * 7);
    const results = await Promise.all(
      numbers.map((n) => engine.translate({ source: 'en', target: 'es', segments: [`The house number ${n} has a red door.`, `I bought ${n + 1} cats.`] })),
    );
    results.forEach(([house, cats], i) => {
      expect(house).toContain(String(numbers[i]));
      expect(house).toContain('casa');
      expect(cats).toContain(String(numbers[i] + 1));
      expect(cats).toContain('gatos');
    });
    expect(engine.pipelines()['eng-spa']).toHaveLength(1);
  });

  it('replaces a pipeline after its segments, answering every request it already holds', async () => {
    const recycling = new ApertiumEngine({ segmentsPerPipeline: 10 });
    try {
      const first = await warmPipeline(recycling, 'en', 'es', 'eng-spa');
      const numbers = Array.from({ length: 30 }, (_, i) => 100 + i * 3);
      const results = await Promise.all(
        numbers.map((n) => recycling.translate({ source: 'en', target: 'es', segments: [`I bought ${n} cats.`, `The house number ${n} is red.`] })),
      );
      results.forEach(([cats, house], i) => {
        expect(cats).toContain(String(numbers[i]));
        expect(cats).toContain('gatos');
        expect(house).toContain(String(numbers[i]));
        expect(house).toContain('casa');
      });
      const now = recycling.pipelines()['eng-spa'];
      expect(now).toHaveLength(1);
      expect(now[0]).not.toEqual(first);
      // Worn out, the first pipeline stops once it has answered what it held.
      await expect.poll(() => first.some(isProcessRunning)).toBe(false);
    } finally {
      await recycling.close();
    }
  });

  it('restarts a pipeline whose process was killed while idle', async () => {
    const before = await warmPipeline(engine, 'es', 'en', 'spa-eng');
    process.kill(before[0], 'SIGKILL');
    await expect.poll(() => before.some(isProcessRunning)).toBe(false);

    const [english] = await engine.translate({ source: 'es', target: 'en', segments: ['El perro come.'] });
    expect(english).toContain('dog');
    const after = engine.pipelines()['spa-eng'];
    expect(after).toHaveLength(1);
    expect(after[0]).not.toEqual(before);
  });

  it('retries a request whose pipeline crashes under it', async () => {
    const stages = await warmPipeline(engine, 'en', 'es', 'eng-spa');
    const middle = stages[Math.floor(stages.length / 2)];
    // Frozen, the stage holds the request inside the pipeline until it is killed.
    process.kill(middle, 'SIGSTOP');
    const pending = engine.translate({ source: 'en', target: 'es', segments: [SENTENCE] });
    await new Promise((resolve) => setTimeout(resolve, 100));
    process.kill(middle, 'SIGKILL');

    const [spanish] = await pending;
    expect(spanish).toContain('gato');
    expect(engine.pipelines()['eng-spa'][0]).not.toContain(middle);
  });

  it('kills and replaces a stuck pipeline, then retries', async () => {
    // Short, yet ample for a fresh pipeline to load its data and answer the retry.
    const impatient = new ApertiumEngine({ timeoutMs: 2000 });
    try {
      const stages = await warmPipeline(impatient, 'en', 'es', 'eng-spa');
      process.kill(stages[1], 'SIGSTOP');
      const [spanish] = await impatient.translate({ source: 'en', target: 'es', segments: [SENTENCE] });
      expect(spanish).toContain('gato');
      await expect.poll(() => stages.some(isProcessRunning)).toBe(false);
    } finally {
      await impatient.close();
    }
  });

  it('refuses pairs it cannot translate', async () => {
    for (const [source, target] of [['en', 'de'], ['es', 'ro'], ['en', 'en'], ['ca', 'es'], ['xx', 'es']]) {
      await expect(engine.translate({ source, target, segments: ['Hello'] })).rejects.toBeInstanceOf(UnsupportedPairError);
    }
  });

  it('stops every process on close', async () => {
    const own = new ApertiumEngine();
    await own.translate({ source: 'en', target: 'fr', segments: [SENTENCE] });
    const pids = Object.values(own.pipelines()).flat(2);
    expect(pids.length).toBeGreaterThan(10);
    await own.close();
    expect(pids.filter(isProcessRunning)).toEqual([]);
    await expect(own.translate({ source: 'en', target: 'fr', segments: [SENTENCE] })).rejects.toBeInstanceOf(EngineError);
  });
});

describe('ApertiumEngine with unusable modes', () => {
  it('fails with an EngineError when a pipeline cannot run, after one retry', async () => {
    const modesDir = mkdtempSync(path.join(tmpdir(), 'apertium-modes-'));
    writeFileSync(path.join(modesDir, 'eng-spa.mode'), "lt-proc '/nonexistent/eng-spa.automorf.bin'\n");
    const broken = new ApertiumEngine({ modesDir });
    try {
      expect(await broken.pairs()).toEqual([{ source: 'en', target: 'es' }]);
      const failure = broken.translate({ source: 'en', target: 'es', segments: [SENTENCE] });
      await expect(failure).rejects.toBeInstanceOf(EngineError);
      await expect(failure).rejects.toThrow(/pipeline eng-spa: .*Cannot open file '\/nonexistent/);
    } finally {
      await broken.close();
    }
  });

  it('offers nothing when no modes are installed', async () => {
    const empty = new ApertiumEngine({ modesDir: path.join(tmpdir(), 'no-such-apertium-modes') });
    expect(await empty.pairs()).toEqual([]);
    await expect(empty.translate({ source: 'en', target: 'es', segments: ['Hello'] })).rejects.toBeInstanceOf(UnsupportedPairError);
  });
});
