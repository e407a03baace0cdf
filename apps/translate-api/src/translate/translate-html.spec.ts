import type { NestFastifyApplication } from '@nestjs/platform-fastify';
import { loadConfig } from '@platform/service-kit';
import { createTestKey, http, testAppEnv, type TestKey } from '@platform/testing';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { TranslateApiConfig } from '../config/translate-api.config';
import { serveTranslateApi } from '../translate-api.app';

describe('POST /api/v1/translate with format html, through Apertium', () => {
  let app: NestFastifyApplication;
  let url: string;
  let key: TestKey;

  const translate = (body: Record<string, unknown>) =>
    http(url, 'POST', '/api/v1/translate', { json: { target: 'es', source: 'en', format: 'html', ...body }, token: key.plainKey });

  beforeAll(async () => {
    app = await serveTranslateApi(loadConfig(TranslateApiConfig, testAppEnv({ RATE_LIMIT_PER_MINUTE: '1000' })));
    url = await app.getUrl();
    key = await createTestKey();
  });
  afterAll(() => app.close());

  it('gives back end tags with whitespace before ">" byte for byte', async () => {
    const res = await translate({ texts: ['<p>Read <b >the book</b > today.</p>', '<A HREF="#x">Contents</A\n>'] });
    expect(res.status).toBe(200);
    expect(res.body.translations).toEqual(['<p>Leído <b >el libro</b > hoy.</p>', '<A HREF="#x">Contenidos</A\n>']);
  });

  it('keeps each link of a list separated by <br> with its own words', async () => {
    const html = '<a href="#a">Abstract</a>\n<br><a href="#b">Background</a>\n<br><a href="#c">Current Implementation</a>';
    const res = await translate({ texts: [html] });
    expect(res.status).toBe(200);
    expect(res.body.translations).toEqual(['<a href="#a">Abstracto</a>\n<br><a href="#b">De fondo</a>\n<br><a href="#c">Implementación actual</a>']);
    expect(res.body.words).toBe(4);
  });

  it('translates and bills text attributes unless html_attributes is false, and marks the target language', async () => {
    const html = '<html lang="en"><p title="Good morning">Hello <img src="a.png" alt="Red car"></p></html>';
    const on = await translate({ texts: [html] });
    expect(on.status).toBe(200);
    expect(on.body.translations).toEqual(['<html lang="es"><p title="Buenos días">Hola <img src="a.png" alt="Coche rojo"></p></html>']);
    expect(on.body.words).toBe(5);

    const off = await translate({ texts: [html], html_attributes: false });
    expect(off.status).toBe(200);
    expect(off.body.translations).toEqual(['<html lang="es"><p title="Good morning">Hola <img src="a.png" alt="Red car"></p></html>']);
    expect(off.body.words).toBe(1);
  });

  it('refuses an html_attributes that is not a boolean with 422', async () => {
    const res = await translate({ texts: ['<p>Hello</p>'], html_attributes: 'no' });
    expect(res.status).toBe(422);
    expect(res.body).toEqual({ error: 'unsupported_language', message: expect.stringContaining('html_attributes must be true or false') });
  });
});
