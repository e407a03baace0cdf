// Apertium, the default translation engine: its Debian packages, installed by `npm start` (as
// root, with apt) when missing. Nothing is needed when the configured engines do not include it.
import { aptInstall, commandExists, isRoot, log, run, warn } from './common.mjs';

/**
 * The engine and its language pairs between EU languages: en<->es, fr<->es, es<->pt, es<->it,
 * ro->es, sv<->da, hr<->sl; the engine pivots through Spanish for the rest (en->fr...). Debian's
 * other pairs touch no second EU language (eng-cat, fra-cat...) or are too rough to offer
 * (hbs-eng, Bulgarian through mkd-*, Swedish->English through isl-*): docs/languages.md has the
 * figures of `npm run bench:apertium` and the threshold. `.ci/run` installs this list too.
 */
export const APERTIUM_PACKAGES = [
  'apertium',
  'apertium-eng-spa',
  'apertium-fr-es',
  'apertium-es-pt',
  'apertium-spa-ita',
  'apertium-es-ro',
  'apertium-swe-dan',
  'apertium-hbs-slv',
  // The allocator the pipelines' programs run on (APERTIUM_ALLOCATOR).
  'libtcmalloc-minimal4',
];

/** The services that translate. */
const TRANSLATING_APPS = ['translate-api', 'batch-worker'];

/** The engines the services will use, as their config reads them (TRANSLATION_ENGINES over TRANSLATION_ENGINE). */
export function configuredEngines(env = process.env) {
  const list = (env.TRANSLATION_ENGINES || '').split(',').map((name) => name.trim()).filter(Boolean);
  return list.length > 0 ? list : [env.TRANSLATION_ENGINE || 'apertium'];
}

/** Makes sure the packages are there when one of `apps` will translate with Apertium. */
export async function ensureApertium(apps, env = process.env) {
  if (!configuredEngines(env).includes('apertium')) return;
  if (!apps.some((app) => TRANSLATING_APPS.includes(app))) return;
  const missing = await missingPackages();
  if (missing.length === 0) return;
  if (!isRoot() || !commandExists('apt-get')) {
    warn(`Apertium is not (fully) installed; translations need: apt-get install ${missing.join(' ')}`);
    return;
  }
  // Without Apertium the other services still work, so a failed install is not fatal.
  try {
    await aptInstall(missing);
    log('apertium installed');
  } catch (error) {
    warn(`could not install ${missing.join(' ')}: ${error.message}`);
  }
}

async function missingPackages() {
  // Outside Debian there is no package database to ask: the command itself tells.
  if (!commandExists('dpkg-query')) return commandExists('apertium') ? [] : APERTIUM_PACKAGES;
  const { stdout } = await run('dpkg-query', ['-W', '-f=${Package} ${Status}\\n', ...APERTIUM_PACKAGES], { allowFailure: true });
  const installed = new Set(
    stdout
      .split('\n')
      .filter((line) => line.endsWith(' install ok installed'))
      .map((line) => line.split(' ')[0]),
  );
  return APERTIUM_PACKAGES.filter((name) => !installed.has(name));
}
