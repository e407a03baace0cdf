import createClient, { type Client } from 'openapi-fetch';
import type { components, paths } from './generated/translate-api';

export type TranslationPaths = paths;
export type TranslationSchemas = components['schemas'];
export type TranslationClient = Client<paths>;

export interface TranslationClientOptions {
  /** Where translate-api listens, without `/api/v1`, e.g. `http://127.0.0.1:3000`. */
  baseUrl: string;
  /** `svc_test_...` or `svc_live_...`; for the review routes, a reviewer token `rvw_...`. */
  apiKey: string;
  /** Another fetch (a test double, a proxy agent); the global one by default. */
  fetch?: typeof globalThis.fetch;
}

/**
 * A client of the translation API whose paths, parameters, bodies and answers are the types
 * generated from its OpenAPI document: `client.POST('/api/v1/translate', { body })` answers
 * `{ data }` on success and `{ error }` (the `{error, message}` envelope) otherwise.
 */
export function createTranslationClient(options: TranslationClientOptions): TranslationClient {
  return createClient<paths>({ baseUrl: options.baseUrl, headers: { authorization: `Bearer ${options.apiKey}` }, fetch: options.fetch });
}

export type TranslateResponse = TranslationSchemas['TranslateResponseDto'];
export type AcceptedJob = TranslationSchemas['BatchAcceptedDto'];

/** POST /api/v1/translate answers 200 with the translations in tiers basic and pro, 202 with a job in tier review. */
export const isTranslated = (data: TranslateResponse | AcceptedJob): data is TranslateResponse => 'translations' in data;

export type MonthUsage = TranslationSchemas['UsageResponseDto'];
export type UsageHistory = TranslationSchemas['UsageHistoryResponseDto'];

/** GET /api/v1/usage answers this month's usage without query parameters, the history with `from`, `to` or `granularity`. */
export const isUsageHistory = (data: MonthUsage | UsageHistory): data is UsageHistory => 'periods' in data;
