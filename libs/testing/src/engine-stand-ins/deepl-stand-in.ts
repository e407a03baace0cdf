import { translateMarkup } from './phrasebook';
import { startStandIn, type RecordedRequest, type StandIn, type StandInReply } from './stand-in-server';

/** A mix of EU and non-EU languages, with DeepL's regional target variants. */
const SOURCE_LANGUAGES = ['BG', 'CS', 'DA', 'DE', 'EL', 'EN', 'ES', 'ET', 'FI', 'FR', 'HU', 'IT', 'JA', 'LT', 'LV', 'NL', 'PL', 'PT', 'RO', 'SK', 'SL', 'SV', 'UK', 'ZH'];
const TARGET_LANGUAGES = [...SOURCE_LANGUAGES.filter((code) => code !== 'EN' && code !== 'PT'), 'EN-GB', 'EN-US', 'PT-BR', 'PT-PT'];
/** Targets DeepL lists with `supports_formality: true` (the others say false). */
const FORMAL_TARGETS = new Set(['DE', 'ES', 'FR', 'IT', 'JA', 'NL', 'PL', 'PT-BR', 'PT-PT']);
const CHARACTER_LIMIT = 500_000;

const languageNames = new Intl.DisplayNames(['en'], { type: 'language' });

export interface DeeplStandInOptions {
  /** The key requests must carry as `Authorization: DeepL-Auth-Key <key>`. */
  authKey: string;
}

/**
 * A local server speaking the parts of DeepL's API v2 the engine uses: `POST /v2/translate`,
 * `GET /v2/languages`, `GET /v2/usage`. It checks the auth header and language codes the way
 * DeepL does, translates with the phrasebook and leaves tags as they are.
 */
export async function startDeeplStandIn(options: DeeplStandInOptions): Promise<StandIn> {
  let charactersUsed = 0;

  const translate = (request: RecordedRequest): StandInReply => {
    const texts = request.params.getAll('text');
    const targetLang = request.params.get('target_lang')?.toUpperCase();
    const sourceLang = request.params.get('source_lang')?.toUpperCase();
    if (texts.length === 0) return badRequest("Parameter 'text' not specified.");
    if (!targetLang) return badRequest("Parameter 'target_lang' not specified.");
    if (!TARGET_LANGUAGES.includes(targetLang)) return badRequest("Value for 'target_lang' not supported.");
    if (sourceLang && !SOURCE_LANGUAGES.includes(sourceLang)) return badRequest("Value for 'source_lang' not supported.");
    const tagHandling = request.params.get('tag_handling');
    if (tagHandling && tagHandling !== 'xml' && tagHandling !== 'html') return badRequest("Value for 'tag_handling' not supported.");

    const source = sourceLang ?? 'EN';
    charactersUsed += texts.reduce((sum, text) => sum + text.length, 0);
    return {
      status: 200,
      body: {
        translations: texts.map((text) => ({
          detected_source_language: source,
          text: translateMarkup(text, plain(source), plain(targetLang)),
          billed_characters: text.length,
        })),
      },
    };
  };

  return startStandIn((request) => {
    if (request.headers.authorization !== `DeepL-Auth-Key ${options.authKey}`) return { status: 403, body: { message: 'Forbidden' } };
    const route = `${request.method} ${request.path}`;
    switch (route) {
      case 'POST /v2/translate':
        return translate(request);
      case 'GET /v2/languages': {
        const target = request.params.get('type') === 'target';
        const codes = target ? TARGET_LANGUAGES : SOURCE_LANGUAGES;
        return {
          status: 200,
          body: codes.map((language) => ({ language, name: languageNames.of(language), ...(target && { supports_formality: FORMAL_TARGETS.has(language) }) })),
        };
      }
      case 'GET /v2/usage':
        return { status: 200, body: { character_count: charactersUsed, character_limit: CHARACTER_LIMIT } };
      default:
        return { status: 404, body: { message: 'Not found' } };
    }
  });
}

function badRequest(message: string): StandInReply {
  return { status: 400, body: { message } };
}

/** `EN-GB` -> `en`: the phrasebook knows languages, not regional variants. */
function plain(deeplCode: string): string {
  return deeplCode.split('-')[0].toLowerCase();
}
