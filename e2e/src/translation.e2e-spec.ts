import { randomUUID } from 'node:crypto';
import { describe, expect, inject, it } from 'vitest';
import { SENTENCE, SENTENCE_WORDS, translate as translateWith, translated, translationClient, type TranslateRequest } from './translation.client';

const { translateKey: key } = inject('credentials');

const translate = (body: TranslateRequest, headers?: Record<string, string>) => translateWith(key, body, headers);
const client = translationClient(key);

describe('translate-api: translating', () => {
  it('translates text from English to Spanish in tier basic, priced per word, with rate limit headers', async () => {
    const res = await translate({ source: 'en', target: 'es', texts: [SENTENCE, 'Good morning, my friend.'] });
    expect(res.response.status).toBe(200);
    expect(res.data).toEqual({
      ok: true,
      target: 'es',
      tier: 'basic',
      translations: [expect.stringMatching(/gato.*sofá/), expect.stringMatching(/amigo/)],
      words: SENTENCE_WORDS + 4,
      cost_cents: 1,
      detected_source: 'en',
      detected_sources: ['en', 'en'],
      origins: ['engine', 'engine'],
    });
    expect(res.response.headers.get('x-translation-engine')).toBe('apertium');
    expect(res.response.headers.get('ratelimit-policy')).toMatch(/^"default";q=\d+;w=60$/);
    expect(res.response.headers.get('ratelimit')).toMatch(/^"default";r=\d+;t=\d+$/);
  });

  it('translates in tier pro at its own price', async () => {
    const res = await translate({ source: 'en', target: 'es', tier: 'pro', texts: [SENTENCE] });
    expect(res.response.status).toBe(200);
    expect(res.data).toMatchObject({ tier: 'pro', translations: [expect.stringContaining('gato')], words: SENTENCE_WORDS, cost_cents: 1 });
  });

  it('detects the source language when none is given', async () => {
    const res = await translate({ target: 'es', texts: ['Le chat dort sur le canapé rouge.'] });
    expect(res.response.status).toBe(200);
    expect(res.data).toMatchObject({ detected_source: 'fr', translations: [expect.stringContaining('gato')] });
  });

  it('translates the text of HTML and keeps its markup', async () => {
    const res = await translate({ source: 'en', target: 'es', format: 'html', texts: ['<p class="intro">The <b>cat</b> is sleeping on the <a href="/sofa">red sofa</a>.</p>'] });
    const [html] = translated(res).translations;
    expect(html).toMatch(/^<p class="intro">.*<\/p>$/);
    expect(html).toMatch(/<b>gato<\/b>/);
    expect(html).toMatch(/<a href="\/sofa">[^<]*sofá[^<]*<\/a>/);
    expect(translated(res).words).toBe(SENTENCE_WORDS);
  });

  it('translates the string values of JSON and keeps keys and numbers', async () => {
    const res = await translate({ source: 'en', target: 'es', format: 'json', texts: [JSON.stringify({ title: 'The red cat', pages: 3, tags: ['sofa'] })] });
    expect(JSON.parse(translated(res).translations[0])).toEqual({ title: expect.stringContaining('gato'), pages: 3, tags: [expect.stringMatching(/sofá/i)] });
    expect(translated(res).words).toBe(4);
  });

  it('replays a request with the same Idempotency-Key without charging it again', async () => {
    const headers = { 'idempotency-key': `e2e-${randomUUID()}` };
    const request: TranslateRequest = { source: 'en', target: 'es', texts: ['The dog is in the garden.'] };
    const first = await translate(request, headers);
    expect(first.response.status).toBe(200);
    const usageBefore = await client.GET('/api/v1/usage');

    const replay = await translate(request, headers);
    expect(replay.response.status).toBe(200);
    expect(replay.response.headers.get('idempotent-replayed')).toBe('true');
    expect(replay.data).toEqual(first.data);
    expect((await client.GET('/api/v1/usage')).data!.words).toBe(usageBefore.data!.words);

    const reused = await translate({ ...request, target: 'fr' }, headers);
    expect(reused.response.status).toBe(422);
    expect(reused.error).toMatchObject({ error: 'idempotency_key_reused' });
  });

  it('lists the languages of the engine with their native names and the targets of each source', async () => {
    const res = await client.GET('/api/v1/languages');
    expect(res.response.status).toBe(200);
    expect(res.data!.ok).toBe(true);
    expect(res.data!.source).toEqual(
      expect.arrayContaining([
        { code: 'en', name: 'English', targets: expect.arrayContaining(['es', 'fr']) },
        { code: 'fr', name: 'Français', targets: expect.arrayContaining(['en', 'es']) },
      ]),
    );
    expect(res.data!.target).toEqual(expect.arrayContaining([{ code: 'es', name: 'Español' }]));
  });

  it('refuses an unknown key in its error envelope', async () => {
    const res = await translateWith('svc_test_unknown', { target: 'es', texts: [SENTENCE] });
    expect(res.response.status).toBe(401);
    expect(res.error).toEqual({ error: 'invalid_key', message: expect.any(String) });
  });
});
