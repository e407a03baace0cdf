import { randomUUID } from 'node:crypto';
import { describe, expect, inject, it } from 'vitest';
import { SENTENCE, SENTENCE_WORDS, translationApi } from './translation.client';

const { translateKey: key } = inject('credentials');

const translate = (json: Record<string, unknown>, headers?: Record<string, string>) => translationApi('POST', '/translate', key, { json, headers });

describe('translate-api: translating', () => {
  it('translates text from English to Spanish in tier basic, priced per word, with rate limit headers', async () => {
    const res = await translate({ source: 'en', target: 'es', texts: [SENTENCE, 'Good morning, my friend.'] });
    expect(res.status).toBe(200);
    expect(res.body).toEqual({
      ok: true,
      target: 'es',
      tier: 'basic',
      translations: [expect.stringMatching(/gato.*sofá/), expect.stringMatching(/amigo/)],
      words: SENTENCE_WORDS + 4,
      cost_cents: 1,
      detected_source: 'en',
      detected_sources: ['en', 'en'],
    });
    expect(res.headers.get('x-translation-engine')).toBe('apertium');
    expect(res.headers.get('ratelimit-policy')).toMatch(/^"default";q=\d+;w=60$/);
    expect(res.headers.get('ratelimit')).toMatch(/^"default";r=\d+;t=\d+$/);
  });

  it('translates in tier pro at its own price', async () => {
    const res = await translate({ source: 'en', target: 'es', tier: 'pro', texts: [SENTENCE] });
    expect(res.status).toBe(200);
    expect(res.body).toMatchObject({ tier: 'pro', translations: [expect.stringContaining('gato')], words: SENTENCE_WORDS, cost_cents: 1 });
  });

  it('detects the source language when none is given', async () => {
    const res = await translate({ target: 'es', texts: ['Le chat dort sur le canapé rouge.'] });
    expect(res.status).toBe(200);
    expect(res.body).toMatchObject({ detected_source: 'fr', translations: [expect.stringContaining('gato')] });
  });

  it('translates the text of HTML and keeps its markup', async () => {
    const res = await translate({ source: 'en', target: 'es', format: 'html', texts: ['<p class="intro">The <b>cat</b> is sleeping on the <a href="/sofa">red sofa</a>.</p>'] });
    expect(res.status).toBe(200);
    const [html] = res.body.translations;
    expect(html).toMatch(/^<p class="intro">.*<\/p>$/);
    expect(html).toMatch(/<b>gato<\/b>/);
    expect(html).toMatch(/<a href="\/sofa">[^<]*sofá[^<]*<\/a>/);
    expect(res.body.words).toBe(SENTENCE_WORDS);
  });

  it('translates the string values of JSON and keeps keys and numbers', async () => {
    const res = await translate({ source: 'en', target: 'es', format: 'json', texts: [JSON.stringify({ title: 'The red cat', pages: 3, tags: ['sofa'] })] });
    expect(res.status).toBe(200);
    expect(JSON.parse(res.body.translations[0])).toEqual({ title: expect.stringContaining('gato'), pages: 3, tags: [expect.stringMatching(/sofá/i)] });
    expect(res.body.words).toBe(4);
  });

  it('replays a request with the same Idempotency-Key without charging it again', async () => {
    const headers = { 'idempotency-key': `e2e-${randomUUID()}` };
    const request = { source: 'en', target: 'es', texts: ['The dog is in the garden.'] };
    const first = await translate(request, headers);
    expect(first.status).toBe(200);
    const usageBefore = await translationApi('GET', '/usage', key);

    const replay = await translate(request, headers);
    expect(replay.status).toBe(200);
    expect(replay.headers.get('idempotent-replayed')).toBe('true');
    expect(replay.body).toEqual(first.body);
    expect((await translationApi('GET', '/usage', key)).body.words).toBe(usageBefore.body.words);

    const reused = await translate({ ...request, target: 'fr' }, headers);
    expect(reused.status).toBe(422);
    expect(reused.body).toMatchObject({ error: 'idempotency_key_reused' });
  });

  it('lists the languages of the engine with their native names', async () => {
    const res = await translationApi('GET', '/languages', key);
    expect(res.status).toBe(200);
    expect(res.body.ok).toBe(true);
    expect(res.body.source).toEqual(expect.arrayContaining([{ code: 'en', name: 'English' }, { code: 'fr', name: 'Français' }]));
    expect(res.body.target).toEqual(expect.arrayContaining([{ code: 'es', name: 'Español' }]));
  });

  it('refuses an unknown key in its error envelope', async () => {
    const res = await translationApi('POST', '/translate', 'svc_test_unknown', { json: { target: 'es', texts: [SENTENCE] } });
    expect(res.status).toBe(401);
    expect(res.body).toEqual({ error: 'invalid_key', message: expect.any(String) });
  });
});
