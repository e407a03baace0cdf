import { corpusText } from '@platform/testing';
import { describe, expect, inject, it } from 'vitest';
import { expectAcceptedJob, finishedJob, translationApi } from '../translation.client';
import { expectIntactHtml, htmlFileWords } from './html-file.check';
import { expectIntactLocaleFile, localeFileWords } from './locale-file.check';

const { corpusKey: key } = inject('credentials');

/** The published limit of one POST /translate; a larger file goes as a batch, as a client would send it. */
const MAX_TRANSLATE_CHARACTERS = 30_000;
/** The billed words may differ from the independent count by this share (word segmentation details). */
const WORD_TOLERANCE = 0.005;
/**
 * Of the strings with words, at least this share must come back changed: a file left in English
 * is not intact, it is untranslated. A floor, not a measure of quality (names, placeholders such
 * as `[Sender_Name]` and Lorem ipsum rightly stay as they are).
 */
const MIN_TRANSLATED = 0.3;

const LOCALE_FILES = ['locales/flutter-gallery/intl_en.arb', 'locales/lemmy/frontend/en.json', 'locales/lemmy/backend/en.json', 'locales/privacy-badger/en_US/messages.json'];
const TEMPLATES = [
  'email/responsive-html-email-template.email-inlined.html',
  'email/sendgrid-paste.receipt.html',
  'email/sendgrid-dynamic.receipt.html',
  'templates/healthchecks.alert-body-html.html',
  'templates/casper.post.hbs',
];

/** One file through the API: its translation and the words billed for it. */
async function translateFile(text: string, format: 'json' | 'html', target: string): Promise<{ translation: string; words: number }> {
  const body = { texts: [text], format, source: 'en', target };
  if (text.length <= MAX_TRANSLATE_CHARACTERS) {
    const res = await translationApi('POST', '/translate', key, { json: body });
    expect(res.status, JSON.stringify(res.body)).toBe(200);
    return { translation: res.body.translations[0], words: res.body.words };
  }
  const job = await finishedJob(key, expectAcceptedJob(await translationApi('POST', '/batches', key, { json: body })));
  return { translation: job.results[0].translation, words: job.words };
}

function expectWords(billed: number, independent: number) {
  expect(Math.abs(billed - independent), `billed ${billed} words, counted ${independent}`).toBeLessThanOrEqual(Math.ceil(independent * WORD_TOLERANCE));
}

/**
 * Real localisation files and templates of public projects through the API, checked with code
 * of their own (not the pipeline's): the structure comes back intact, only human-readable text
 * changes, and the billed words match an independent count.
 */
describe.each(['es', 'fr'])('the localisation corpus, en→%s', (target) => {
  it.each(LOCALE_FILES)('%s keeps keys, values, placeholders and ICU structure', async (path) => {
    const source = corpusText(path);
    const { translation, words } = await translateFile(source, 'json', target);
    const { changed, of } = expectIntactLocaleFile(source, translation);
    expect(changed / of, `${changed} of ${of} strings translated`).toBeGreaterThanOrEqual(MIN_TRANSLATED);
    expectWords(words, localeFileWords(source));
  });

  it.each(TEMPLATES)('%s keeps every tag, template tag and protected content', async (path) => {
    const source = corpusText(path);
    const { translation, words } = await translateFile(source, 'html', target);
    const { changed, of } = expectIntactHtml(source, translation);
    // A page whose text is all template code (a Ghost theme's) has its words in attributes only.
    if (of > 0) expect(changed / of, `${changed} of ${of} stretches translated`).toBeGreaterThanOrEqual(MIN_TRANSLATED);
    expectWords(words, htmlFileWords(source));
  });
});
