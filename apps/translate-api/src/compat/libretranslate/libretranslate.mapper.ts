import { ApiError } from '@platform/errors';
import type { ImmediateAnswer, ImmediateRequest } from '../../translate/translate.service';
import type { DetectedLanguageDto, LibreTranslateRequestDto, LibreTranslateResponseDto } from './dtos/libretranslate.dto';

/**
 * Our detection names a language without a score; LibreTranslate's clients expect one. A
 * detection that decided a translation is reported as this confident.
 */
export const DETECTED_CONFIDENCE = 90;

export function toTranslateRequest(body: LibreTranslateRequestDto): ImmediateRequest {
  const texts = typeof body.q === 'string' ? [body.q] : body.q;
  if (texts.length === 0) throw ApiError.invalidParameter('Invalid request: missing q parameter');
  return {
    texts,
    // The pipeline refuses a language it cannot translate, as it does for /api/v1.
    target: body.target,
    source: body.source === 'auto' ? undefined : body.source,
    format: body.format ?? 'text',
    memory: body.memory,
    missing: body.missing,
    style_profile: body.style_profile,
  };
}

/** A string for a string `q`, an array for an array, as LibreTranslate answers. */
export function toLibreTranslateResponse(body: LibreTranslateRequestDto, { body: answer }: ImmediateAnswer): LibreTranslateResponseDto {
  const single = typeof body.q === 'string';
  const translatedText = single ? answer.translations[0] : answer.translations;
  const style = { ...(answer.style_profile && { style_profile: answer.style_profile }), ...(answer.formality && { formality: answer.formality }) };
  if (body.source !== 'auto') return { translatedText, ...style };
  const detected = answer.detected_sources.map((code): DetectedLanguageDto => ({ confidence: DETECTED_CONFIDENCE, language: code }));
  return { translatedText, detectedLanguage: single ? detected[0] : detected, ...style };
}
