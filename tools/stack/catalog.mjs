// The catalog memory under `npm start`: the translation packages of catalog-packages.mjs,
// installed (as root, with apt) when missing, and translate-api's `admin catalog:build`, run in
// the background once the services are up.
import { CATALOG_PACKAGES } from './catalog-packages.mjs';
import { aptInstall, commandExists, isRoot, log, run, warn } from './common.mjs';
import { runAppCommand } from './services.mjs';


/** Packages of the list that are not installed. */
async function missingPackages() {
  if (!commandExists('dpkg-query')) return [];
  const { stdout } = await run('dpkg-query', ['-W', '-f=${Package} ${Status}\\n', ...CATALOG_PACKAGES], { allowFailure: true });
  const installed = new Set(
    stdout
      .split('\n')
      .filter((line) => line.endsWith(' install ok installed'))
      .map((line) => line.split(' ')[0]),
  );
  return CATALOG_PACKAGES.filter((name) => !installed.has(name));
}

/** Whether this run builds the catalog: translate-api runs, and STACK_CATALOG is not `off`. */
export const catalogWanted = (apps, env = process.env) => apps.includes('translate-api') && env.STACK_CATALOG !== 'off';

/** Installs the missing packages as root; the catalog is built from whatever is there, so a failure only warns. */
export async function ensureCatalogPackages(apps, env = process.env) {
  if (!catalogWanted(apps, env)) return;
  const missing = await missingPackages();
  if (missing.length === 0) return;
  if (!isRoot() || !commandExists('apt-get')) {
    warn(`the catalog memory is built from the catalogs installed; for all of them: apt-get install ${missing.join(' ')}`);
    return;
  }
  try {
    await aptInstall(missing);
    log('translation catalogs installed');
  } catch (error) {
    warn(`could not install ${missing.join(' ')}: ${error.message}`);
  }
}

/**
 * `admin catalog:build` against the stack's database: a few minutes the first time (every EU
 * language), about a second when the installed catalogs have not changed. Lookups simply find no
 * catalog entry until it is done, so the stack does not wait for it; a failure only warns.
 */
export async function buildCatalog(env, stopping = () => false) {
  const started = Date.now();
  log('building the catalog memory from the installed translation catalogs (in the background)');
  const code = await runAppCommand('translate-api', ['admin', 'catalog:build'], env, { allowFailure: true });
  if (code === 0) log(`catalog memory ready in ${((Date.now() - started) / 1000).toFixed(0)} s`);
  else if (!stopping()) warn(`the catalog memory was not built (exit code ${code}); retry with: npm run admin -- catalog:build`);
}
