import { setTimeout as sleep } from 'node:timers/promises';
import { CachedPairs, euPairs } from '../cached-pairs';
import type { EngineConfig } from '../engine.config';
import { EngineError, type EngineRequest, type LanguagePair, type TranslationEngine } from '../translation-engine';
import { fromLibreTranslateHtml } from './libretranslate-markup';

export interface LibreTranslateOptions {
  /** Per attempt, answer included (default 30 s). */
  timeoutMs?: number;
}

const DEFAULT_TIMEOUT_MS = 30_000;
/** Every request looks the pairs up first: a server that hangs must not hold them up for long. */
const PAIRS_TIMEOUT_MS = 5_000;
/** 429 answers are retried this often, waiting as `Retry-After` says (capped) or backing off. */
const MAX_RATE_LIMIT_RETRIES = 2;
const MAX_RETRY_DELAY_MS = 5_000;
const BASE_RETRY_DELAY_MS = 500;

interface LibreTranslateLanguage {
  code: string;
  /** Absent in old LibreTranslate versions. */
  targets?: string[];
}

/**
 * A LibreTranslate server over its HTTP API. Segments go as HTML (`format: html`), so the
 * placeholder tags come back as tags; hints are not passed on, LibreTranslate has no glossaries.
 */
export class LibreTranslateEngine implements TranslationEngine {
  readonly name = 'libretranslate';
  private readonly baseUrl: string;
  private readonly apiKey?: string;
  private readonly timeoutMs: number;
  private readonly languagePairs: CachedPairs;

  constructor(config: EngineConfig, options: LibreTranslateOptions = {}) {
    if (!config.LIBRETRANSLATE_URL) throw new Error('LIBRETRANSLATE_URL is required when libretranslate is an engine');
    this.baseUrl = config.LIBRETRANSLATE_URL.replace(/\/+$/, '');
    this.apiKey = config.LIBRETRANSLATE_API_KEY || undefined;
    this.timeoutMs = options.timeoutMs ?? DEFAULT_TIMEOUT_MS;
    this.languagePairs = new CachedPairs(() => this.loadPairs(), config.ENGINE_PAIRS_TTL_MS);
  }

  pairs(): Promise<LanguagePair[]> {
    return this.languagePairs.get();
  }

  async translate({ source, target, segments }: EngineRequest): Promise<string[]> {
    await this.languagePairs.assertSupported({ source, target });
    if (segments.length === 0) return [];
    const body = await this.request('POST', '/translate', { q: segments, source, target, format: 'html', api_key: this.apiKey });
    const translated = (body as { translatedText?: unknown }).translatedText;
    if (!Array.isArray(translated) || translated.length !== segments.length || !translated.every((t) => typeof t === 'string')) {
      throw new EngineError(`LibreTranslate answered ${segments.length} texts with an unexpected body`);
    }
    return translated.map(fromLibreTranslateHtml);
  }

  private async loadPairs(): Promise<LanguagePair[]> {
    const languages = (await this.request('GET', '/languages', undefined, Math.min(this.timeoutMs, PAIRS_TIMEOUT_MS))) as LibreTranslateLanguage[];
    if (!Array.isArray(languages)) throw new EngineError('LibreTranslate answered /languages with an unexpected body');
    return euPairs(languages.flatMap(({ code, targets }) => (targets ?? []).map((target) => ({ source: code, target }))));
  }

  /** A failed request also drops the cached pairs: a server that comes back may have other models. */
  private async request(method: 'GET' | 'POST', path: string, json?: object, timeoutMs = this.timeoutMs): Promise<unknown> {
    try {
      return await this.send(method, path, json, timeoutMs);
    } catch (error) {
      this.languagePairs.invalidate();
      throw error;
    }
  }

  private async send(method: 'GET' | 'POST', path: string, json: object | undefined, timeoutMs: number): Promise<unknown> {
    for (let retries = 0; ; retries++) {
      let response: Response;
      let text: string;
      try {
        response = await fetch(`${this.baseUrl}${path}`, {
          method,
          headers: json ? { 'content-type': 'application/json' } : undefined,
          body: json ? JSON.stringify(json) : undefined,
          signal: AbortSignal.timeout(timeoutMs),
        });
        text = await response.text();
      } catch (error) {
        throw new EngineError(
          error instanceof DOMException && error.name === 'TimeoutError'
            ? `LibreTranslate did not answer ${path} within ${timeoutMs} ms`
            : `LibreTranslate is unreachable: ${reason(error)}`,
        );
      }
      if (response.status === 429 && retries < MAX_RATE_LIMIT_RETRIES) {
        await sleep(retryDelay(response.headers.get('retry-after'), retries));
        continue;
      }
      const body = parseJson(text);
      if (response.ok && body !== undefined) return body;
      throw new EngineError(`LibreTranslate answered ${path} with ${response.status}: ${this.redact(errorMessage(body, text))}`);
    }
  }

  /** Error texts come from the server; make sure none repeats the key back. */
  private redact(message: string): string {
    return this.apiKey ? message.replaceAll(this.apiKey, '[redacted]') : message;
  }
}

function retryDelay(retryAfter: string | null, retries: number): number {
  const backoff = BASE_RETRY_DELAY_MS * 2 ** retries;
  if (!retryAfter) return backoff;
  // Retry-After is either whole seconds or an HTTP date.
  const requested = /^\d+$/.test(retryAfter.trim()) ? Number(retryAfter) * 1000 : Date.parse(retryAfter) - Date.now();
  return Number.isNaN(requested) ? backoff : Math.min(Math.max(requested, 0), MAX_RETRY_DELAY_MS);
}

function parseJson(text: string): unknown {
  try {
    return JSON.parse(text);
  } catch {
    return undefined;
  }
}

/** LibreTranslate explains failures in `{error}`; anything else is shown shortened. */
function errorMessage(body: unknown, text: string): string {
  const error = (body as { error?: unknown } | undefined)?.error;
  return typeof error === 'string' ? error : text.slice(0, 200) || '(empty body)';
}

function reason(error: unknown): string {
  if (!(error instanceof Error)) return String(error);
  // fetch reports "fetch failed" and keeps the useful part (ECONNREFUSED, ...) in the cause.
  return error.cause instanceof Error ? `${error.message} (${error.cause.message})` : error.message;
}
