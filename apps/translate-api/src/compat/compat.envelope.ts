import { envelopeByPath, translationEnvelope, type ErrorEnvelope } from '@platform/errors';
import { COMPAT_PATHS, type CompatApi } from './compat-apis';
import { deeplEnvelope } from './deepl/deepl.envelope';
import { libreTranslateEnvelope } from './libretranslate/libretranslate.envelope';

const ENVELOPES: Record<CompatApi, ErrorEnvelope> = { deepl: deeplEnvelope, libretranslate: libreTranslateEnvelope };

/** translate-api's errors: each enabled compatible API's paths in its vendor's shape, all others in ours. */
export function translateApiEnvelope(apis: readonly CompatApi[]): ErrorEnvelope {
  return envelopeByPath(apis.map((api) => ({ matches: COMPAT_PATHS[api], envelope: ENVELOPES[api] })), translationEnvelope);
}
