import type { Formality } from '@platform/translation-pipeline';
import type { ImmediateAnswer, ImmediateRequest } from '../../translate/translate.service';
import { fromDeepLCode, toDeepLCode } from './deepl-language';
import type { DeepLTranslateDto } from './dtos/deepl-translate.dto';
import type { DeepLTranslateResponseDto } from './dtos/deepl-translate-response.dto';

/**
 * We charge words, DeepL counts characters: every figure in DeepL's units is words × 6, about
 * the length of an average word in the EU languages with its space.
 */
export const CHARACTERS_PER_WORD = 6;

/** DeepL's `prefer_` formalities fall back where a language has none; ours always do, and say so. */
const FORMALITY: Record<string, Formality> = { default: 'default', more: 'more', less: 'less', prefer_more: 'more', prefer_less: 'less' };

/**
 * The /api/v1 request a DeepL request is; a glossary binds, which is our tier pro. `formality`
 * and `ignore_tags` (with tag handling) ride the style machinery: the formality wins over the
 * style profile's, the ignored elements are kept as `translate="no"` ones are.
 */
export function toTranslateRequest(body: DeepLTranslateDto): ImmediateRequest {
  return {
    texts: body.text,
    target: fromDeepLCode('target_lang', body.target_lang),
    source: body.source_lang === undefined ? undefined : fromDeepLCode('source_lang', body.source_lang),
    format: body.tag_handling ? 'html' : 'text',
    tier: body.glossary_id ? 'pro' : 'basic',
    glossary: body.glossary_id,
    memory: body.memory,
    missing: body.missing,
    style_profile: body.style_profile,
    formality: body.formality === undefined ? undefined : FORMALITY[body.formality],
    ignoreTags: body.tag_handling ? body.ignore_tags?.map((tag) => tag.trim().toLowerCase()).filter(Boolean) : undefined,
  };
}

export function toDeepLTranslations({ body, wordsPerText }: ImmediateAnswer): DeepLTranslateResponseDto {
  return {
    ...(body.style_profile && { style_profile: body.style_profile }),
    ...(body.formality && { formality: body.formality }),
    translations: body.translations.map((text, index) => ({
      detected_source_language: toDeepLCode(body.detected_sources[index]),
      text,
      billed_characters: wordsPerText[index] * CHARACTERS_PER_WORD,
    })),
  };
}
