import { EU_LANGUAGES } from '@platform/contracts';
import {
  AuthorizationError,
  ConnectionError,
  DeepLClient,
  DeepLError,
  QuotaExceededError,
  TooManyRequestsError,
  type TranslateTextOptions,
} from 'deepl-node';
import { CachedPairs, euPairs } from '../cached-pairs';
import type { EngineConfig } from '../engine.config';
import { EngineError, type EngineRequest, type LanguagePair, type TranslationEngine } from '../translation-engine';
import { deeplSource, deeplTarget } from './deepl-languages';

/**
 * Segments are XML fragments: `<x/>` placeholders are kept as they are, `<g>` wraps text DeepL
 * translates and moves with the words. No tag marks a sentence boundary, so outline detection
 * is off and newlines do not split either: a segment is translated as the unit it was cut as.
 */
const TEXT_OPTIONS: TranslateTextOptions = {
  tagHandling: 'xml',
  ignoreTags: ['x'],
  nonSplittingTags: ['g', 'x'],
  outlineDetection: false,
  splitSentences: 'nonewlines',
};

/** DeepL's per-request limits: 50 texts and 128 KiB of form-encoded body (kept a little under). */
const MAX_TEXTS_PER_REQUEST = 50;
const MAX_REQUEST_CHARS = 120_000;

/**
 * The client retries 429 and 5xx answers and dropped connections itself, with exponential backoff
 * from one second; its count includes the first attempt, so this is two retries. The client does
 * not expose response headers, so a `Retry-After` cannot be honoured here.
 */
const CLIENT_MAX_RETRIES = 3;
const REQUEST_TIMEOUT_MS = 30_000;

/**
 * DeepL through its official Node client. Glossary hints (tier basic) are not passed on: DeepL
 * glossaries are stored account objects, and a hint never has to be honoured.
 */
export class DeeplEngine implements TranslationEngine {
  readonly name = 'deepl';
  private readonly client: DeepLClient;
  private readonly authKey: string;
  private readonly languagePairs: CachedPairs;
  /** Targets DeepL lists as supporting `formality`, as of the last language list. */
  private formalTargets = new Set<string>();

  constructor(config: EngineConfig) {
    if (!config.DEEPL_API_KEY) throw new Error('DEEPL_API_KEY is required when deepl is an engine');
    this.languagePairs = new CachedPairs(() => this.call(() => this.loadPairs()), config.ENGINE_PAIRS_TTL_MS);
    this.authKey = config.DEEPL_API_KEY;
    this.client = new DeepLClient(this.authKey, {
      serverUrl: config.DEEPL_SERVER_URL || undefined,
      maxRetries: CLIENT_MAX_RETRIES,
      minTimeout: REQUEST_TIMEOUT_MS,
      sendPlatformInfo: false,
    });
  }

  pairs(): Promise<LanguagePair[]> {
    return this.languagePairs.get();
  }

  appliesFormality(target: string): boolean {
    return this.formalTargets.has(target);
  }

  async translate({ source, target, segments, formality }: EngineRequest): Promise<string[]> {
    await this.languagePairs.assertSupported({ source, target });
    // DeepL refuses `formality` for a target without it, so only those with it are told.
    const options: TranslateTextOptions = formality && this.appliesFormality(target) ? { ...TEXT_OPTIONS, formality } : TEXT_OPTIONS;
    const translations = [...segments];
    // DeepL refuses empty texts, and blank ones have nothing to translate.
    const pending = segments.flatMap((segment, index) => (/\S/.test(segment) ? [index] : []));
    for (const batch of batches(pending, segments)) {
      const results = await this.call(() =>
        this.client.translateText(
          batch.map((index) => segments[index]),
          deeplSource(source),
          deeplTarget(target),
          options,
        ),
      );
      results.forEach((result, k) => (translations[batch[k]] = result.text));
    }
    return translations;
  }

  private async loadPairs(): Promise<LanguagePair[]> {
    const [sources, targets] = await Promise.all([this.client.getSourceLanguages(), this.client.getTargetLanguages()]);
    const targetCodes = new Set(targets.map((language) => language.code.toLowerCase()));
    const offeredTargets = EU_LANGUAGES.filter((code) => targetCodes.has(deeplTarget(code).toLowerCase()));
    const formal = new Set(targets.filter((language) => language.supportsFormality).map((language) => language.code.toLowerCase()));
    this.formalTargets = new Set(offeredTargets.filter((code) => formal.has(deeplTarget(code).toLowerCase())));
    return euPairs(sources.flatMap((language) => offeredTargets.map((target) => ({ source: language.code, target }))));
  }

  /**
   * Runs a client call and turns its failures into `EngineError`s that never carry the key. A
   * failure also drops the cached pairs, so that what DeepL offers is asked afresh once it answers.
   */
  private async call<T>(request: () => Promise<T>): Promise<T> {
    try {
      return await request();
    } catch (error) {
      this.languagePairs.invalidate();
      throw new EngineError(this.redact(describe(error)));
    }
  }

  private redact(message: string): string {
    return message.replaceAll(this.authKey, '[redacted]');
  }
}

function describe(error: unknown): string {
  if (error instanceof AuthorizationError) return 'DeepL rejected the configured API key (403)';
  if (error instanceof QuotaExceededError) return "DeepL's character quota for this billing period is used up (456)";
  if (error instanceof TooManyRequestsError) return 'DeepL is still answering 429 Too Many Requests after retries';
  if (error instanceof ConnectionError) return `DeepL is unreachable: ${error.message}`;
  if (error instanceof DeepLError) return `DeepL request failed: ${error.message}`;
  return `DeepL client failed: ${error instanceof Error ? error.message : String(error)}`;
}

/** Groups segment indexes into requests within DeepL's limits, keeping their order. */
function* batches(indexes: number[], segments: string[]): Generator<number[]> {
  let batch: number[] = [];
  let size = 0;
  for (const index of indexes) {
    const segmentSize = encodeURIComponent(segments[index]).length;
    if (batch.length > 0 && (batch.length === MAX_TEXTS_PER_REQUEST || size + segmentSize > MAX_REQUEST_CHARS)) {
      yield batch;
      batch = [];
      size = 0;
    }
    batch.push(index);
    size += segmentSize;
  }
  if (batch.length > 0) yield batch;
}
