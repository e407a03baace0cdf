import { existsSync } from 'node:fs';
import { loadConfig } from '@platform/service-kit';
import { corpusText } from '@platform/testing';
import { ApertiumEngine, EngineRouter } from '@platform/translation-engines';
import { afterAll, describe, expect, it } from 'vitest';
import { LanguageDetector } from '../detection/language-detector';
import { PricingConfig } from '../pricing/pricing.config';
import { TranslationPipeline } from '../translation-pipeline';
import type { TranslationRequest } from '../translation-request';

const MODES_DIR = '/usr/share/apertium/modes';
const installed = existsSync(MODES_DIR);

/**
 * Template tags as this test reads them, independently of the service: Handlebars comments,
 * triple and double mustaches (whose strings may hold `}}`), Django/Jinja statements and
 * comments, and EJS/ERB.
 */
const TEMPLATE_TAG = /\{\{!--[\s\S]*?--\}\}|\{\{\{[^{}]*\}\}\}|\{\{(?:"[^"]*"|'[^']*'|[^"'{}])*\}\}|\{%[\s\S]*?%\}|\{#[\s\S]*?#\}|<%[\s\S]*?%>/g;
const templateTags = (text: string) => (text.match(TEMPLATE_TAG) ?? []).sort();

describe.skipIf(!installed)('template syntax through the pipeline with Apertium (en → es)', () => {
  const engine = installed ? new ApertiumEngine({ modesDir: MODES_DIR }) : undefined!;
  const pipeline = new TranslationPipeline(new EngineRouter([engine]), loadConfig(PricingConfig, {}), new LanguageDetector());
  afterAll(() => engine?.close());

  const translate = async (texts: string[], format: TranslationRequest['format']) => {
    const prepared = await pipeline.prepare({ texts, source: 'en', target: 'es', format, tier: 'basic' });
    return { prepared, translations: (await pipeline.run(prepared)).translations };
  };

  it.each(['templates/casper.post.hbs', 'templates/healthchecks.alert-body-html.html', 'email/sendgrid-dynamic.receipt.html'])(
    'translates %s as HTML with exactly the template tags of the source, none of them billed',
    async (path) => {
      const source = corpusText(path);
      const { prepared, translations } = await translate([source], 'html');
      expect(translations[0]).not.toBe(source);
      expect(templateTags(translations[0])).toEqual(templateTags(source));
      // Billed as the same document without its template syntax.
      const { words } = await pipeline.prepare({ texts: [source.replace(TEMPLATE_TAG, ' ')], source: 'en', target: 'es', format: 'html', tier: 'basic' });
      expect(prepared.words).toBe(words);
      expect(prepared.words).toBeGreaterThan(0);
    },
  );

  it('bills only the aria-labels of the Ghost theme, the rest being Handlebars', async () => {
    const { prepared, translations } = await translate([corpusText('templates/casper.post.hbs')], 'html');
    // "Read more of {{name}}", twice.
    expect(prepared.words).toBe(6);
    expect(translations[0].match(/aria-label="[^"]*"/g)).toEqual(['aria-label="Leído más de {{name}}"', 'aria-label="Leído más de {{name}}"']);
  });

  it('keeps a Django condition in the middle of a sentence as placeholders of that sentence and translates the words between', async () => {
    const html = '<p>The check is down{% if flip.reason %} because of the red cat{% endif %}.</p>';
    const { prepared, translations } = await translate([html], 'html');
    expect(prepared.documents[0].segments.map((segment) => segment.toEngine('protected'))).toEqual(['The check is down<x id="1"/> because of the red cat<x id="2"/>.']);
    expect(translations[0]).toMatch(/^<p>[^{]*\{% if flip\.reason %\}[^{]*gato rojo[^{]*\{% endif %\}\.<\/p>$/);
    expect(prepared.words).toBe(9);
  });

  // Openers without their closers: every finder must read them in linear time. A megabyte is
  // prepared; a tenth of a million is also translated (the engine's own time grows with the text).
  it.each(['{{', '<%', '{%'].flatMap((unit) => (['text', 'json', 'html'] as const).map((format) => [unit, format] as const)))(
    'prepares a megabyte and translates 100,000 of unmatched %s as %s',
    async (unit, format) => {
      const request = (count: number) => {
        const text = `The cat ${unit.repeat(count)} sleeps.`;
        return [format === 'json' ? JSON.stringify({ message: text }) : text];
      };
      const megabyte = await pipeline.prepare({ texts: request(500_000), source: 'en', target: 'es', format, tier: 'basic' });
      expect(megabyte.words).toBe(3);
      const { prepared, translations } = await translate(request(100_000), format);
      expect(prepared.words).toBe(3);
      expect(translations[0]).toContain(unit.repeat(100_000));
      expect(translations[0]).toMatch(/gato/);
    },
  );
});
