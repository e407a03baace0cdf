// The browser the console's tests drive: Debian's Chromium (the npm registry serves no browser
// builds), installed like PostgreSQL when it is missing and this process may use apt-get.
import { existsSync } from 'node:fs';
import { aptInstall, commandExists, isRoot, log, StackError } from './common.mjs';

export const CHROMIUM_PATH = process.env.CHROMIUM_PATH || '/usr/bin/chromium';

export async function ensureChromium() {
  if (existsSync(CHROMIUM_PATH)) return CHROMIUM_PATH;
  if (process.env.CHROMIUM_PATH || !isRoot() || !commandExists('apt-get')) {
    throw new StackError(`no Chromium at ${CHROMIUM_PATH}: install Debian's package (apt-get install chromium) or set CHROMIUM_PATH`);
  }
  await aptInstall(['chromium']);
  log('chromium installed');
  return CHROMIUM_PATH;
}
