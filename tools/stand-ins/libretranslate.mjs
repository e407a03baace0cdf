#!/usr/bin/env node
// A test double speaking LibreTranslate's HTTP API, as a process of its own, for trying engine
// routing by hand against `npm start`. It translates a handful of phrases and passes every other
// word through unchanged: it is no translation engine and must never serve real traffic.
//
//   node tools/stand-ins/libretranslate.mjs [--port 5055] [--languages eu | en,de,fr] [--api-key KEY]
//
// `--languages eu` (the default) installs a model between every two official EU languages.
import { build } from 'esbuild';
import path from 'node:path';
import { parseArgs } from 'node:util';
import { fileURLToPath } from 'node:url';

const root = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '../..');

const { values } = parseArgs({
  options: {
    port: { type: 'string', default: '5055' },
    languages: { type: 'string', default: 'eu' },
    'api-key': { type: 'string' },
  },
});

// The stand-in is TypeScript shared with the tests; bundled in memory, it needs no build step.
const { outputFiles } = await build({
  stdin: {
    contents: [
      "export { modelsBetween, startLibreTranslateStandIn } from './libs/testing/src/engine-stand-ins/libretranslate-stand-in';",
      "export { EU_LANGUAGES, isEuLanguage } from './libs/contracts/src/languages';",
    ].join('\n'),
    resolveDir: root,
    loader: 'ts',
  },
  bundle: true,
  write: false,
  platform: 'node',
  format: 'esm',
  logLevel: 'error',
});
const { modelsBetween, startLibreTranslateStandIn, EU_LANGUAGES, isEuLanguage } = await import(
  `data:text/javascript;base64,${Buffer.from(outputFiles[0].text).toString('base64')}`
);

const port = Number(values.port);
const languages = values.languages === 'eu' ? EU_LANGUAGES : values.languages.split(',').map((code) => code.trim()).filter(Boolean);
const unknown = languages.filter((code) => !isEuLanguage(code));
if (!Number.isInteger(port) || port < 1 || port > 65535 || languages.length < 2 || unknown.length > 0) {
  console.error('usage: libretranslate.mjs [--port 1-65535] [--languages eu | two or more EU codes, comma-separated] [--api-key KEY]');
  if (unknown.length > 0) console.error(`not official EU languages: ${unknown.join(', ')}`);
  process.exit(2);
}

const standIn = await startLibreTranslateStandIn({ port, models: modelsBetween(languages), apiKey: values['api-key'] });
console.log(`LibreTranslate stand-in (a test double) listening on ${standIn.url} with ${languages.length} languages: ${languages.join(',')}`);
console.log(`try: TRANSLATION_ENGINES=apertium,libretranslate LIBRETRANSLATE_URL=${standIn.url} npm start`);

for (const signal of ['SIGINT', 'SIGTERM']) {
  process.once(signal, () => void standIn.stop().then(() => process.exit(0)));
}
