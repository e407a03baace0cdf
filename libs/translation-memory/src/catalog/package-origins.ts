import { execFile } from 'node:child_process';
import { readFile } from 'node:fs/promises';
import path from 'node:path';
import { promisify } from 'node:util';

/** Which installed package owns each file, by path; a file no package owns is absent. */
export type OwnersOf = (paths: readonly string[]) => Promise<Map<string, string>>;

/** Paths per dpkg-query call, well under any command line's limit. */
const PATHS_PER_QUERY = 500;

/**
 * Debian's package database: `dpkg-query --search` prints `package: path` for each owned file
 * (`pkg1, pkg2: path` when several packages ship it; the first is taken). Without dpkg, nothing
 * is owned.
 */
export const dpkgOwners: OwnersOf = async (paths) => {
  const owners = new Map<string, string>();
  for (let start = 0; start < paths.length; start += PATHS_PER_QUERY) {
    const chunk = paths.slice(start, start + PATHS_PER_QUERY);
    let stdout: string;
    try {
      ({ stdout } = await promisify(execFile)('dpkg-query', ['--search', ...chunk], { maxBuffer: 64 * 1024 * 1024 }));
    } catch (error) {
      // Exit code 1 with the owned files on stdout when some path belongs to no package.
      const failed = error as { code?: number | string; stdout?: string };
      if (failed.code === 'ENOENT') return owners;
      if (failed.code !== 1 || typeof failed.stdout !== 'string') throw error;
      stdout = failed.stdout;
    }
    for (const line of stdout.split('\n')) {
      // `libglib2.0-0:amd64: /usr/share/...`: the package may carry its architecture.
      const at = line.indexOf(': /');
      if (at < 0 || line.startsWith('diversion by')) continue;
      owners.set(line.slice(at + 2), line.slice(0, at).split(',')[0].trim().replace(/:[a-z0-9_-]+$/, ''));
    }
  }
  return owners;
};

/** One stanza of a Debian control-style file: field names in lower case, continuation lines joined with newlines. */
type Stanza = Map<string, string>;

/** Stanzas of a deb822 file (blank lines between them, `Field: value`, continuation lines indented, `#` comments). */
function stanzas(text: string): Stanza[] {
  const result: Stanza[] = [];
  let current: Stanza | undefined;
  let field: string | undefined;
  for (const line of text.split(/\r?\n/)) {
    if (line.trim() === '') {
      current = undefined;
      continue;
    }
    if (line.startsWith('#')) continue;
    if (/^\s/.test(line) && current && field) {
      current.set(field, `${current.get(field)}\n${line.trim()}`);
      continue;
    }
    const match = /^([^\s:]+):\s*(.*)$/.exec(line);
    if (!match) continue;
    if (!current) result.push((current = new Map()));
    field = match[1].toLowerCase();
    current.set(field, match[2].trim());
  }
  return result;
}

/**
 * The licence of a package's files as its copyright file states it. In a machine-readable
 * (DEP-5) file, the first line of `License:` in the `Files: *` stanza (else the first `Files:`
 * stanza): a short name such as `LGPL-2.1+` or `MPL-2.0`. A free-form file names no licence in a
 * form to quote, so the answer is where to read it.
 */
export function licenceOfCopyright(text: string, copyrightPath: string): string {
  const [header, ...rest] = stanzas(text);
  if (header?.get('format')?.includes('copyright-format')) {
    const files = rest.filter((stanza) => stanza.has('files') && stanza.has('license'));
    const whole = files.find((stanza) => stanza.get('files')!.split(/\s+/).includes('*')) ?? files[0];
    const licence = whole?.get('license')?.split('\n')[0].trim();
    if (licence) return licence;
  }
  return `see ${copyrightPath}`;
}

/** The licence of each package, read once per package from `<docRoot>/<package>/copyright`. */
export class PackageLicences {
  private readonly known = new Map<string, Promise<string>>();

  constructor(private readonly docRoot = '/usr/share/doc') {}

  of(pkg: string): Promise<string> {
    let licence = this.known.get(pkg);
    if (!licence) {
      const file = path.join(this.docRoot, pkg, 'copyright');
      licence = readFile(file, 'utf8').then(
        (text) => licenceOfCopyright(text, file),
        () => 'unknown (no copyright file)',
      );
      this.known.set(pkg, licence);
    }
    return licence;
  }
}
