import { loadConfig } from '@platform/service-kit';
import { EngineRouter, type EngineRequest, type LanguagePair, type TranslationEngine } from '@platform/translation-engines';
import { LanguageDetector, PricingConfig, TranslationPipeline } from '@platform/translation-pipeline';
import { describe, expect, it } from 'vitest';
import { tokensOfSentence } from './inline-text';
import { entryRow } from './memory-entry-row';
import { canonicalIds, memoryKey, withIds } from './memory-key';
import { reviewedPairs } from './reviewed-pairs';

/** An engine that must never be asked: every sentence here comes from what a reviewer taught. */
const noEngine: TranslationEngine = {
  name: 'none',
  pairs: async (): Promise<LanguagePair[]> => [{ source: 'en', target: 'de' }],
  translate: async (request: EngineRequest) => {
    throw new Error(`engine asked for ${request.segments.join(' | ')}`);
  },
};

/**
 * What a reviewer's edit teaches is keyed exactly as the pipeline looks the same sentence up:
 * the stored entry (as `learn` writes it) answers the next request of that sentence, with its
 * variables and markup in place, whatever ids the request's sentence gives them.
 */
describe('a reviewed sentence found again by the pipeline', () => {
  const pipeline = new TranslationPipeline(new EngineRouter([noEngine]), loadConfig(PricingConfig, {}), new LanguageDetector());

  async function nextRequest(format: 'text' | 'json', reviewedSource: string, edit: string, request: string) {
    const entries = reviewedPairs(format, reviewedSource, edit).map((pair) => {
      const row = entryRow({ sourceLang: 'en', targetLang: 'de', source: tokensOfSentence(pair.source), target: tokensOfSentence(pair.target) }, 'reviewer_edit', {});
      if ('problem' in row) throw new Error(row.problem);
      return row;
    });
    const prepared = await pipeline.prepare({ texts: [request], source: 'en', target: 'de', format, tier: 'pro' });
    const stored = prepared.sentences.map(({ masked }) => {
      const entry = entries.find((row) => row.sourceKey === memoryKey(masked));
      const target = entry && withIds(entry.targetText, canonicalIds(masked).ids);
      return target === undefined ? undefined : { target, origin: 'memory' as const };
    });
    return (await pipeline.run(prepared, pipeline.plan(prepared, stored))).translations[0];
  }

  it('with a variable and inline markup moved about', async () => {
    expect(await nextRequest('text', 'Delete {count} <b>old</b> files', '<b>Alte</b> Dateien ({count}) löschen', 'Delete {count} <b>old</b> files')).toBe('<b>Alte</b> Dateien ({count}) löschen');
    // The same sentence with other variable names and tag attributes: the same entry.
    expect(await nextRequest('text', 'Delete {count} <b>old</b> files', '<b>Alte</b> Dateien ({count}) löschen', 'Delete {n} <b class="x">old</b> files')).toBe('<b class="x">Alte</b> Dateien ({n}) löschen');
  });

  it('with template syntax at the edges, and line by line', async () => {
    expect(await nextRequest('text', '{{count}} files\nSave all', 'Dateien: {{count}}\nAlle speichern', '{{count}} files\nSave all')).toBe('Dateien: {{count}}\nAlle speichern');
  });

  it('in a JSON locale file, value by value', async () => {
    const source = JSON.stringify({ title: 'Delete <b>{name}</b>?', ok: 'OK' });
    const edit = JSON.stringify({ title: '<b>{name}</b> löschen?', ok: 'Gut' });
    expect(await nextRequest('json', source, edit, JSON.stringify({ heading: 'Delete <b>{name}</b>?' }))).toBe(JSON.stringify({ heading: '<b>{name}</b> löschen?' }));
  });
});
