import { translateMarkup, translatePhrases } from './phrasebook';
import { startStandIn, type RecordedRequest, type StandIn, type StandInReply } from './stand-in-server';

/** Installed models by default: source code -> target codes, with some non-EU languages and some gaps. */
const DEFAULT_MODELS: Record<string, string[]> = {
  en: ['de', 'es', 'fr', 'it', 'ja', 'zh'],
  de: ['en', 'fr'],
  fr: ['de', 'en'],
  es: ['en'],
  it: ['en'],
  ja: ['en'],
  zh: ['en'],
};

const languageNames = new Intl.DisplayNames(['en'], { type: 'language' });
const ENTITIES: Record<string, string> = { '&amp;': '&', '&lt;': '<', '&gt;': '>', '&quot;': '"', '&#39;': "'" };

export interface LibreTranslateStandInOptions {
  /** When set, `/translate` requires this `api_key`, as a LibreTranslate started with `--api-keys` does. */
  apiKey?: string;
  /** Installed models, source code -> target codes (see `modelsBetween`); a small mixed set by default. */
  models?: Record<string, string[]>;
  /** Loopback port to listen on; a free one by default. */
  port?: number;
}

/** Models from every one of `languages` into every other, as a server with all of them installed has. */
export function modelsBetween(languages: readonly string[]): Record<string, string[]> {
  return Object.fromEntries(languages.map((source) => [source, languages.filter((target) => target !== source)]));
}

/**
 * A local server speaking LibreTranslate's `POST /translate` and `GET /languages`. Like the real
 * one it takes `q` as a string or an array, and for `format: html` it serialises empty elements
 * with an end tag (`<x id="1"></x>`) and decodes entities in its output, so engine tests see the
 * same quirks a real server has.
 */
export async function startLibreTranslateStandIn(options: LibreTranslateStandInOptions = {}): Promise<StandIn> {
  const models = options.models ?? DEFAULT_MODELS;
  const known = new Set([...Object.keys(models), ...Object.values(models).flat()]);
  const translate = (request: RecordedRequest): StandInReply => {
    const body = (request.json ?? Object.fromEntries(request.params)) as { q?: string | string[]; source?: string; target?: string; format?: string; api_key?: string };
    if (options.apiKey !== undefined) {
      if (!body.api_key) return error(400, 'Please contact the server operator to get an API key');
      if (body.api_key !== options.apiKey) return error(403, 'Invalid API key');
    }
    const { q, source, target } = body;
    const format = body.format ?? 'text';
    if (!q || q.length === 0) return error(400, 'Invalid request: missing q parameter');
    if (!source) return error(400, 'Invalid request: missing source parameter');
    if (!target) return error(400, 'Invalid request: missing target parameter');
    if (!known.has(source)) return error(400, `${source} is not supported`);
    if (!known.has(target)) return error(400, `${target} is not supported`);
    if (format !== 'text' && format !== 'html') return error(400, `${format} format is not supported`);
    if (!models[source]?.includes(target)) {
      return error(400, `${languageNames.of(target)} (${target}) is not available as a target language from ${languageNames.of(source)} (${source})`);
    }
    const one = (text: string) => (format === 'html' ? asLibreTranslateHtml(translateMarkup(text, source, target)) : translatePhrases(text, source, target));
    return { status: 200, body: { translatedText: Array.isArray(q) ? q.map(one) : one(q) } };
  };

  return startStandIn((request) => {
    const route = `${request.method} ${request.path}`;
    switch (route) {
      case 'POST /translate':
        return translate(request);
      case 'GET /languages':
        return { status: 200, body: Object.entries(models).map(([code, targets]) => ({ code, name: languageNames.of(code), targets })) };
      default:
        return error(404, 'Not Found');
    }
  }, options.port);
}

function error(status: number, message: string): StandInReply {
  return { status, body: { error: message } };
}

function asLibreTranslateHtml(html: string): string {
  return html.replace(/<([a-z][\w-]*)([^>]*?)\s*\/>/g, '<$1$2></$1>').replace(/&(?:amp|lt|gt|quot|#39);/g, (entity) => ENTITIES[entity]);
}
