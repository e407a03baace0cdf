import type { NestFastifyApplication } from '@nestjs/platform-fastify';
import { loadConfig } from '@platform/service-kit';
import { createTestKey, http, testAppEnv } from '@platform/testing';
import { randomUUID } from 'node:crypto';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { TranslateApiConfig } from '../config/translate-api.config';
import { serveTranslateApi } from '../translate-api.app';

const NNBSP = '\u202F';
const BRANDS = 'The new Apple Pay button in Notion and Windows.';

describe('POST /api/v1/translate with a style profile, Apertium translating', () => {
  let app: NestFastifyApplication;
  let url: string;

  beforeAll(async () => {
    app = await serveTranslateApi(loadConfig(TranslateApiConfig, testAppEnv({ RATE_LIMIT_PER_MINUTE: '1000' })));
    url = await app.getUrl();
  });
  afterAll(() => app.close());

  /** A fresh account's key, with a profile made from `profile`. */
  async function withProfile(profile: Record<string, unknown>, options: { accountId?: string; sandbox?: boolean } = {}) {
    const { plainKey, accountId } = await createTestKey(options);
    const api = (method: string, path: string, json?: unknown) => http(url, method, `/api/v1${path}`, { token: plainKey, json });
    const created = await api('POST', '/style-profiles', { name: 'Style', ...profile });
    expect(created.status).toBe(201);
    const translate = (body: Record<string, unknown>) => api('POST', '/translate', { source: 'en', style_profile: created.body.id, ...body });
    const usage = async () => (await api('GET', '/usage')).body.words as number;
    return { id: created.body.id as string, accountId, api, translate, usage };
  }

  describe('do-not-translate terms', () => {
    it.each([
      ['es', /nuevo/],
      ['fr', /nouveau/],
    ])('keeps Apple Pay, Notion and Windows intact into %s, translates the rest and bills none of them', async (target, translated) => {
      const { id, translate, usage } = await withProfile({ do_not_translate: ['Apple Pay', { term: 'notion', case_sensitive: false }, 'Windows'] });
      const res = await translate({ target, texts: [BRANDS] });
      expect(res.status).toBe(200);
      const [translation] = res.body.translations;
      for (const term of ['Apple Pay', 'Notion', 'Windows']) expect(translation.split(term)).toHaveLength(2);
      expect(translation).toMatch(translated);
      expect(translation).not.toMatch(/Manzana|Pomme|Idea|Idée/);
      // The new _ button in _ and _: five words, not nine.
      expect(res.body.words).toBe(5);
      expect(await usage()).toBe(5);
      expect(res.body.style_profile).toBe(id);

      const without = await translate({ target, texts: [BRANDS], style_profile: 'none' });
      expect(without.body.words).toBe(9);
      expect(without.body.style_profile).toBeUndefined();
    });

    it('keeps them byte for byte inside HTML text and attributes and JSON values, uncounted there too', async () => {
      const { translate } = await withProfile({ do_not_translate: ['Apple Pay', 'Notion'] });
      const html = await translate({ target: 'es', format: 'html', texts: ['<p title="Open Notion">Pay with <b>Apple Pay</b> in Notion.</p>'] });
      expect(html.status).toBe(200);
      expect(html.body.translations[0]).toMatch(/^<p title="[^"]*Notion[^"]*">.*<b>Apple Pay<\/b>.*Notion\.<\/p>$/);
      // Open | Pay with in: the terms are free.
      expect(html.body.words).toBe(4);

      const json = await translate({ target: 'fr', format: 'json', texts: ['{"pay":"Pay with Apple Pay","open":{"label":"Open Notion"}}'] });
      const values = JSON.parse(json.body.translations[0]);
      expect(values.pay).toMatch(/Apple Pay$/);
      expect(values.open.label).toMatch(/Notion$/);
      expect(json.body.words).toBe(3);
    });
  });

  describe('typography', () => {
    it('sets French narrow no-break spaces and guillemets, on translated text only', async () => {
      const { translate } = await withProfile({});
      const res = await translate({ target: 'fr', texts: ['Warning: file not found!', '"Save"', 'Warning: {name} not found!', '<b>Warning</b>: the file is not found!'] });
      expect(res.status).toBe(200);
      const [warning, save, variable, markup] = res.body.translations;
      expect(warning).toMatch(new RegExp(`^\\p{L}+${NNBSP}: .+\\p{L}${NNBSP}!$`, 'u'));
      expect(save).toMatch(new RegExp(`^«${NNBSP}\\p{L}+${NNBSP}»$`, 'u'));
      expect(variable).toMatch(new RegExp(`^\\p{L}+${NNBSP}: \\{name\\} .+${NNBSP}!$`, 'u'));
      expect(markup).toMatch(new RegExp(`^<b>[^<]+</b>${NNBSP}: .+${NNBSP}!$`, 'u'));

      const plain = await translate({ target: 'fr', texts: ['Warning: file not found!', '"Save"'], style_profile: 'none' });
      expect(plain.body.translations[0]).not.toContain(NNBSP);
      expect(plain.body.translations[1]).toMatch(/^"\p{L}+"$/u);
    });

    it('opens Spanish exclamations and questions, and quotes with « »', async () => {
      const { translate } = await withProfile({});
      const res = await translate({ target: 'es', texts: ['Warning: file not found!', 'Warning: {name} not found!', 'Do you save the file?', '"Save"'] });
      const [warning, variable, question, save] = res.body.translations;
      expect(warning).toMatch(/^¡[^¡!]+!$/);
      expect(variable).toMatch(/^¡[^¡!]+\{name\}[^¡!]+!$/);
      expect(question).toMatch(/^¿[^¿?]+\?$/);
      expect(save).toMatch(/^«\p{L}+»$/u);
    });

    it("sets stored translations too: a memory's plain spaces and straight quotes follow the profile", async () => {
      const { api, translate } = await withProfile({});
      const memory = (await api('POST', '/memories', { name: 'app', source: 'en' })).body.memory.id;
      for (const [source, target] of [
        ['Warning: disk full!', 'Attention : disque plein !'],
        ['Open {name}?', 'Ouvrir "{name}" ?'],
      ]) {
        expect((await api('POST', `/memories/${memory}/entries`, { source_lang: 'en', target_lang: 'fr', source, target })).status).toBe(201);
      }
      const res = await translate({ target: 'fr', memories: [memory], texts: ['Warning: disk full!', 'Open {name}?'] });
      expect(res.body).toMatchObject({ origins: ['memory', 'memory'] });
      expect(res.body.translations).toEqual([`Attention${NNBSP}: disque plein${NNBSP}!`, `Ouvrir «${NNBSP}{name}${NNBSP}»${NNBSP}?`]);
      const plain = await translate({ target: 'fr', memories: [memory], texts: ['Warning: disk full!'], style_profile: 'none' });
      expect(plain.body.translations).toEqual(['Attention : disque plein !']);
    });

    it('leaves off the rules a profile switches off', async () => {
      const { translate } = await withProfile({ typography: { french_spacing: false, inverted_marks: false } });
      const [french] = (await translate({ target: 'fr', texts: ['Warning: "file" not found!'] })).body.translations;
      expect(french).not.toContain(NNBSP);
      expect(french).toMatch(/«[^ »][^»]*[^ »]»/);
      const [spanish] = (await translate({ target: 'es', texts: ['Warning: file not found!'] })).body.translations;
      expect(spanish).not.toContain('¡');
    });
  });

  describe('default glossary, memory and profile', () => {
    const sentence = 'The cat is sleeping on the red sofa.';

    it("enforces the profile's glossary in tier pro without naming it; a request's own glossary wins", async () => {
      const { api, translate } = await withProfile({});
      const glossary = async (translation: string) =>
        (await api('POST', '/glossaries', { name: translation, source: 'en', entries: [{ term: 'sofa', translations: { es: translation } }] })).body.glossary.id as string;
      const divan = await glossary('diván');
      const sillon = await glossary('sillón');
      const { id } = (await api('POST', '/style-profiles', { name: 'With glossary', glossary: divan })).body;

      const byProfile = await translate({ target: 'es', tier: 'pro', style_profile: id, texts: [sentence] });
      expect(byProfile.body.translations[0]).toContain('diván');
      const byRequest = await translate({ target: 'es', tier: 'pro', style_profile: id, glossary: sillon, texts: [sentence] });
      expect(byRequest.body.translations[0]).toContain('sillón');
      expect(byRequest.body.translations[0]).not.toContain('diván');
      // Into a target the glossary has no translations for, the profile goes without it.
      const french = await translate({ target: 'fr', tier: 'pro', style_profile: id, texts: [sentence] });
      expect(french.status).toBe(200);
      expect(french.body.translations[0]).toMatch(/canapé|sofa/);
    });

    it("applies the mode's default profile when a request names none, and none with \"none\"", async () => {
      const { api } = await withProfile({});
      const { id } = (await api('POST', '/style-profiles', { name: 'Default', default: true, do_not_translate: ['Notion'] })).body;
      const implicit = await api('POST', '/translate', { source: 'en', target: 'es', texts: ['Open Notion'] });
      expect(implicit.body).toMatchObject({ style_profile: id, words: 1 });
      expect(implicit.body.translations[0]).toMatch(/Notion$/);
      const none = await api('POST', '/translate', { source: 'en', target: 'es', texts: ['Open Notion'], style_profile: 'none' });
      expect(none.body.style_profile).toBeUndefined();
      expect(none.body.words).toBe(2);
    });

    it("answers from the profile's memory when the request names no memories", async () => {
      const { api, translate } = await withProfile({});
      const memory = (await api('POST', '/memories', { name: 'brand', source: 'en' })).body.memory.id;
      await api('POST', `/memories/${memory}/entries`, { source_lang: 'en', target_lang: 'es', source: sentence, target: 'El gato duerme en el sofá rojo.' });
      const { id } = (await api('POST', '/style-profiles', { name: 'With memory', memory })).body;
      const res = await translate({ target: 'es', style_profile: id, texts: [sentence] });
      expect(res.body).toMatchObject({ translations: ['El gato duerme en el sofá rojo.'], origins: ['memory'] });
    });
  });

  it('says Apertium did not apply the formality asked for', async () => {
    const { translate } = await withProfile({ formality: 'less' });
    const res = await translate({ target: 'es', texts: ['The cat is sleeping.'] });
    expect(res.status).toBe(200);
    expect(res.body.formality).toEqual({ requested: 'less', applied: false, applied_by: [], ignored_by: ['apertium'] });
  });

  it("refuses a profile that is not the mode's own with 404, and one that is not an id with 422", async () => {
    const { id, accountId } = await withProfile({});
    const stranger = await withProfile({});
    const live = await withProfile({}, { accountId, sandbox: false });
    for (const { translate } of [stranger, live]) {
      const res = await translate({ target: 'es', texts: ['Hello'], style_profile: id });
      expect(res.status).toBe(404);
      expect(res.body).toEqual({ error: 'not_found', message: `Style profile ${id} not found` });
    }
    expect((await stranger.translate({ target: 'es', texts: ['Hello'], style_profile: randomUUID() })).status).toBe(404);
    const malformed = await stranger.translate({ target: 'es', texts: ['Hello'], style_profile: 'brand' });
    expect(malformed.status).toBe(422);
    expect(malformed.body).toEqual({ error: 'unsupported_language', message: 'style_profile must be the id of one of your style profiles, or "none"' });
    expect(await stranger.usage()).toBe(0);
  });
});
