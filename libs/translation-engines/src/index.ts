export * from './translation-engine';
export * from './engine.config';
export * from './engines.module';
export * from './routing/engine-router';
export * from './apertium/apertium.engine';
export * from './deepl/deepl.engine';
export * from './libretranslate/libretranslate.engine';
