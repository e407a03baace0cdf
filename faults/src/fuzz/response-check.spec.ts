import { describe, expect, it } from 'vitest';
import type { Operation } from './openapi-document';
import { checkAnswer, envelopeOf } from './response-check';

const operation = (tags: string[]): Operation => ({ method: 'POST', path: '/v2/translate', parameters: [], bodies: {}, bodyRequired: false, security: [], responses: {}, tags });
const answer = (status: number, body: object) => ({ status, headers: { 'content-type': 'application/json; charset=utf-8' }, body: Buffer.from(JSON.stringify(body)) });

describe('the error envelope', () => {
  it("is a compatible API's vendor's on its paths, and ours elsewhere", () => {
    expect(envelopeOf('translation', [operation(['DeepL compatible'])])).toBe('deepl');
    expect(envelopeOf('translation', [operation(['LibreTranslate compatible'])])).toBe('libretranslate');
    expect(envelopeOf('translation', [operation(['Translation'])])).toBe('translation');
    expect(envelopeOf('translation', [])).toBe('translation');
  });

  it('holds answers to that shape', () => {
    expect(checkAnswer('deepl', 'POST', undefined, answer(403, { message: 'Invalid API key' }))).toBeUndefined();
    expect(checkAnswer('deepl', 'POST', undefined, answer(400, { error: 'bad_request', detail: 'x' }))).toBe('error answer not in the deepl envelope');
    expect(checkAnswer('libretranslate', 'POST', undefined, answer(400, { error: 'Invalid request: missing q parameter' }))).toBeUndefined();
    expect(checkAnswer('libretranslate', 'POST', undefined, answer(400, { message: 'missing q' }))).toBe('error answer not in the libretranslate envelope');
    expect(checkAnswer('translation', 'POST', undefined, answer(400, { message: 'Invalid API key' }))).toBe('error answer not in the translation envelope');
    expect(checkAnswer('translation', 'POST', undefined, answer(400, { error: 'bad_request', message: 'Bad' }))).toBeUndefined();
    expect(checkAnswer('deepl', 'POST', undefined, answer(500, { message: 'boom' }))).toBe('server error 500');
  });
});
