import { describe, expect, inject, it } from 'vitest';
import { SENTENCE, translate, translated, translationApi } from './translation.client';

const { glossaryKey: key } = inject('credentials');

const GLOSSARY_VIEW = {
  id: expect.stringMatching(/^[0-9a-f-]{36}$/),
  name: expect.any(String),
  source: 'en',
  targets: expect.any(Array),
  entry_count: expect.any(Number),
  created_at: expect.any(String),
  updated_at: expect.any(String),
};

describe('translate-api: glossaries', () => {
  let jsonId: string;
  let csvId: string;

  it('creates a glossary from JSON', async () => {
    const res = await translationApi('POST', '/glossaries', key, {
      json: { name: 'furniture', source: 'en', entries: [{ term: 'sofa', translations: { es: 'diván', fr: 'canapé' } }] },
    });
    expect(res.status).toBe(201);
    expect(res.body).toEqual({ ok: true, glossary: { ...GLOSSARY_VIEW, name: 'furniture', targets: ['es', 'fr'], entry_count: 1 } });
    jsonId = res.body.glossary.id;
  });

  it('creates a glossary from CSV', async () => {
    const res = await translationApi('POST', '/glossaries?name=animals&source=en', key, {
      body: 'term,es,it\ncat,minino,\ndog,chucho,cane\n',
      headers: { 'content-type': 'text/csv' },
    });
    expect(res.status).toBe(201);
    expect(res.body.glossary).toEqual({ ...GLOSSARY_VIEW, name: 'animals', targets: ['es', 'it'], entry_count: 2 });
    csvId = res.body.glossary.id;
  });

  it('lists glossaries and returns one with its entries, as JSON or CSV', async () => {
    const list = await translationApi('GET', '/glossaries', key);
    expect(list.status).toBe(200);
    expect(list.body.glossaries.map((g: { id: string }) => g.id).sort()).toEqual([jsonId, csvId].sort());

    const one = await translationApi('GET', `/glossaries/${csvId}`, key);
    expect(one.status).toBe(200);
    expect(one.body.glossary.entries).toEqual([
      { term: 'cat', translations: { es: 'minino' } },
      { term: 'dog', translations: { es: 'chucho', it: 'cane' } },
    ]);

    const csv = await translationApi('GET', `/glossaries/${csvId}?format=csv`, key);
    expect(csv.status).toBe(200);
    expect(csv.headers.get('content-type')).toMatch(/^text\/csv/);
    expect(csv.text).toBe('term,es,it\r\ncat,minino,\r\ndog,chucho,cane\r\n');
  });

  it('enforces the glossary in tier pro', async () => {
    const plain = await translate(key, { source: 'en', target: 'es', tier: 'pro', texts: [SENTENCE] });
    expect(translated(plain).translations[0]).toContain('sofá');
    const res = await translate(key, { source: 'en', target: 'es', tier: 'pro', glossary: jsonId, texts: [SENTENCE] });
    expect(translated(res).translations[0]).toMatch(/gato.*diván/);
  });

  it('replaces a glossary, and the next translation uses the new entries', async () => {
    const res = await translationApi('PUT', `/glossaries/${jsonId}`, key, {
      json: { name: 'furniture v2', source: 'en', entries: [{ term: 'sofa', translations: { es: 'canapé' } }] },
    });
    expect(res.status).toBe(200);
    expect(res.body.glossary).toMatchObject({ id: jsonId, name: 'furniture v2', targets: ['es'], entry_count: 1 });
    const after = await translate(key, { source: 'en', target: 'es', tier: 'pro', glossary: jsonId, texts: [SENTENCE] });
    expect(translated(after).translations[0]).toContain('canapé');
  });

  it('deletes glossaries', async () => {
    for (const id of [jsonId, csvId]) {
      const res = await translationApi('DELETE', `/glossaries/${id}`, key);
      expect(res.status).toBe(200);
      expect(res.body).toEqual({ ok: true });
      expect((await translationApi('GET', `/glossaries/${id}`, key)).status).toBe(404);
    }
    expect((await translationApi('GET', '/glossaries', key)).body.glossaries).toEqual([]);
  });
});
