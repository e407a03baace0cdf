export type { Disruption, RecordedRequest, StandIn } from './stand-in-server';
export { startDeeplStandIn, type DeeplStandInOptions } from './deepl-stand-in';
export { modelsBetween, startLibreTranslateStandIn, type LibreTranslateStandInOptions } from './libretranslate-stand-in';
