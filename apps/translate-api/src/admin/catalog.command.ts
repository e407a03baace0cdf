import { CATALOG_TARGETS, CatalogBuilder, catalogSummaryLines, DEFAULT_CATALOG_ROOTS } from '@platform/translation-memory';
import { AdminCommandError, parseFlags, type AdminCommand } from '@platform/service-kit';
import { parseArgs } from 'node:util';
import { DataSource } from 'typeorm';

interface CatalogBuildFlags {
  roots: string[];
  languages: string[];
  force: boolean;
}

/**
 * `catalog:build`: the catalog memory from the machine's installed message catalogs, replacing
 * the active build at once; nothing to do (in about a second) when the files have not changed
 * since. Progress goes to stderr, the summary to stdout.
 */
export const catalogBuild: AdminCommand<CatalogBuildFlags> = {
  usage: `admin catalog:build [--dir DIR]... [--languages de,fr] [--force]`,
  parse(args) {
    const { values } = parseFlags(this.usage, () =>
      parseArgs({
        args,
        strict: true,
        options: { dir: { type: 'string', multiple: true }, languages: { type: 'string' }, force: { type: 'boolean', default: false } },
      }),
    );
    const roots = (values.dir ?? DEFAULT_CATALOG_ROOTS).map((dir) => dir.trim());
    if (roots.some((dir) => !dir.startsWith('/'))) throw new AdminCommandError(`--dir takes an absolute directory holding <locale>/LC_MESSAGES/*.mo\nusage: ${this.usage}`);
    const languages = values.languages === undefined ? [...CATALOG_TARGETS] : [...new Set(values.languages.split(',').map((code) => code.trim().toLowerCase()).filter(Boolean))];
    const unknown = languages.filter((code) => !CATALOG_TARGETS.includes(code));
    if (languages.length === 0 || unknown.length > 0) {
      throw new AdminCommandError(`--languages: ${unknown.join(', ') || 'none given'}: catalogs are read for ${CATALOG_TARGETS.join(', ')} (English is their source)`);
    }
    return { roots, languages, force: values.force };
  },
  async run(context, { roots, languages, force }) {
    const builder = new CatalogBuilder(context.get(DataSource), { roots, languages, force, log: (line) => process.stderr.write(`${line}\n`) });
    return catalogSummaryLines(await builder.build());
  },
};
