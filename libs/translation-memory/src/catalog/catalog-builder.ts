import { readFile } from 'node:fs/promises';
import type { DataSource, QueryRunner } from 'typeorm';
import type { CatalogSource } from '../catalog-lookup';
import { keyHash } from './catalog-key';
import { type CatalogFile, CATALOG_TARGETS, DEFAULT_CATALOG_ROOTS, findCatalogFiles, fingerprintOf } from './catalog-files';
import { type CatalogPair, type CatalogSkip, readCatalog } from './catalog-reader';
import { dpkgOwners, type OwnersOf, PackageLicences } from './package-origins';

/**
 * Version of the reading and normalisation rules: part of the fingerprint, so a change of rules
 * rebuilds the catalog even when no file changed. Raise it with any change that alters entries.
 */
export const CATALOG_RULES_VERSION = 2;

/** Every catalog's messages are English strings. */
const SOURCE_LANGUAGE = 'en';
/** Rows per INSERT: a few megabytes of parameters. */
const ROWS_PER_STATEMENT = 5_000;
/** One catalog build at a time per database: a second waits for the first, then finds nothing to do. */
const BUILD_LOCK = `hashtext('translation.catalog_build')`;

export interface CatalogBuildOptions {
  /** Directories holding `<locale>/LC_MESSAGES/*.mo`. */
  roots?: readonly string[];
  /** API language codes to build; all EU languages but English by default. */
  languages?: readonly string[];
  /** Build even when the catalogs are those of the active build. */
  force?: boolean;
  owners?: OwnersOf;
  licences?: PackageLicences;
  /** Progress lines. */
  log?: (line: string) => void;
}

/** What one language's catalogs gave. */
export interface LanguageSummary {
  language: string;
  /** Catalog files read, those left out because no installed package owns them, and those that are no readable catalog. */
  files: number;
  unowned: number;
  unreadable: number;
  /** Messages read, and those that became entries. */
  messages: number;
  taken: number;
  skipped: Partial<Record<CatalogSkip, number>>;
  /** Distinct normalised keys (strings the catalog can answer), and rows (key and candidate translation). */
  keys: number;
  entries: number;
}

export type CatalogBuildResult =
  | { status: 'unchanged'; buildId: string; fingerprint: string }
  | { status: 'built'; buildId: string; fingerprint: string; languages: LanguageSummary[]; seconds: number };

/** Per key, per candidate translation, the catalogs (indexes into the build's sources) that give it. */
type Candidates = Map<string, Map<string, Set<number>>>;

/**
 * Builds the catalog memory from the installed message catalogs: reads every .mo file of the EU
 * languages, normalises and masks its messages as the pipeline's keys are, counts for each key
 * how many catalogs (package and domain) agree on each translation, and writes the result as a
 * new build that replaces the active one in one transaction. Nothing is done when the files are
 * those the active build was made from.
 */
export class CatalogBuilder {
  private readonly roots: readonly string[];
  private readonly languages: readonly string[];
  private readonly owners: OwnersOf;
  private readonly licences: PackageLicences;
  private readonly log: (line: string) => void;

  constructor(
    private readonly dataSource: DataSource,
    private readonly options: CatalogBuildOptions = {},
  ) {
    this.roots = options.roots ?? DEFAULT_CATALOG_ROOTS;
    this.languages = options.languages ?? CATALOG_TARGETS;
    this.owners = options.owners ?? dpkgOwners;
    this.licences = options.licences ?? new PackageLicences();
    this.log = options.log ?? (() => {});
  }

  async build(): Promise<CatalogBuildResult> {
    const started = Date.now();
    const files = await findCatalogFiles(this.roots, this.languages);
    const fingerprint = fingerprintOf(files, CATALOG_RULES_VERSION);
    const runner = this.dataSource.createQueryRunner();
    await runner.connect();
    try {
      // A build's statements (the wait for another build, ANALYZE, deleting the old build) take
      // longer than any request's; a role's own timeouts must not cut them short.
      await runner.query(`SET statement_timeout = 0; SET lock_timeout = 0`);
      await runner.query(`SELECT pg_advisory_lock(${BUILD_LOCK})`);
      const [active]: { id: string; fingerprint: string }[] = await runner.query(`SELECT id, fingerprint FROM translation.catalog_builds WHERE status = 'active'`);
      if (active && active.fingerprint === fingerprint && !this.options.force) return { status: 'unchanged', buildId: String(active.id), fingerprint };
      const [{ id }]: { id: string }[] = await runner.query(`INSERT INTO translation.catalog_builds (fingerprint, status) VALUES ($1, 'building') RETURNING id`, [fingerprint]);
      const buildId = String(id);
      let languages: LanguageSummary[];
      try {
        languages = await this.write(runner, buildId, files);
        await this.activate(runner, buildId, languages);
      } catch (error) {
        await runner.query(`DELETE FROM translation.catalog_builds WHERE id = $1`, [buildId]).catch(() => {});
        throw error;
      }
      // The new build answers already: an old one left behind is deleted by the next build.
      await runner.query(`DELETE FROM translation.catalog_builds WHERE status <> 'active'`).catch((error: Error) => this.log(`the previous build's entries stay until the next build: ${error.message}`));
      return { status: 'built', buildId, fingerprint, languages, seconds: (Date.now() - started) / 1000 };
    } finally {
      await runner.query(`SELECT pg_advisory_unlock(${BUILD_LOCK}); RESET statement_timeout; RESET lock_timeout`).catch(() => {});
      await runner.release();
    }
  }

  /** Reads and writes language after language, so that only one language's entries are in memory at a time. */
  private async write(runner: QueryRunner, buildId: string, files: CatalogFile[]): Promise<LanguageSummary[]> {
    const owners = await this.owners(files.map((file) => file.path));
    const sources: CatalogSource[] = [];
    const sourceIndex = new Map<string, number>();
    const summaries: LanguageSummary[] = [];
    for (const language of this.languages) {
      const own = files.filter((file) => file.language === language);
      if (own.length === 0) continue;
      const summary: LanguageSummary = { language, files: 0, unowned: 0, unreadable: 0, messages: 0, taken: 0, skipped: {}, keys: 0, entries: 0 };
      const candidates: Candidates = new Map();
      for (const file of own) {
        const pkg = owners.get(file.path);
        // A file no package owns has no known origin or licence: it cannot be quoted.
        if (!pkg) {
          summary.unowned++;
          continue;
        }
        const slot = `${pkg}\t${file.domain}`;
        if (!sourceIndex.has(slot)) sourceIndex.set(slot, sources.push({ package: pkg, domain: file.domain, licence: await this.licences.of(pkg) }) - 1);
        const source = sourceIndex.get(slot)!;
        let pairs: (CatalogPair | CatalogSkip)[];
        try {
          pairs = [...readCatalog(await readFile(file.path))];
        } catch (error) {
          // One damaged file costs its own strings, not the whole catalog.
          summary.unreadable++;
          this.log(`${file.path} is not a readable catalog: ${(error as Error).message}`);
          continue;
        }
        summary.files++;
        for (const pair of pairs) {
          summary.messages++;
          if (typeof pair === 'string') {
            summary.skipped[pair] = (summary.skipped[pair] ?? 0) + 1;
            continue;
          }
          summary.taken++;
          let targets = candidates.get(pair.key);
          if (!targets) candidates.set(pair.key, (targets = new Map()));
          let agreeing = targets.get(pair.target);
          if (!agreeing) targets.set(pair.target, (agreeing = new Set()));
          agreeing.add(source);
        }
      }
      summary.keys = candidates.size;
      summary.entries = await this.insert(runner, buildId, language, candidates, sources);
      summaries.push(summary);
      this.log(`${language}: ${summary.files} catalogs, ${summary.keys} strings, ${summary.entries} translations`);
    }
    return summaries;
  }

  private async insert(runner: QueryRunner, buildId: string, language: string, candidates: Candidates, sources: CatalogSource[]): Promise<number> {
    let rows: { hash: Buffer; key: string; target: string; agreement: number; provenance: string }[] = [];
    let written = 0;
    const flush = async () => {
      if (rows.length === 0) return;
      await runner.query(
        `INSERT INTO translation.catalog_entries (build_id, source_lang, target_lang, key_hash, key, target, agreement, provenance)
         SELECT $1, $2, $3, r.hash, r.key, r.target, r.agreement, r.provenance::jsonb
         FROM unnest($4::bytea[], $5::text[], $6::text[], $7::int[], $8::text[]) AS r(hash, key, target, agreement, provenance)`,
        [
          buildId,
          SOURCE_LANGUAGE,
          language,
          rows.map((row) => row.hash),
          rows.map((row) => row.key),
          rows.map((row) => row.target),
          rows.map((row) => row.agreement),
          rows.map((row) => row.provenance),
        ],
      );
      written += rows.length;
      rows = [];
    };
    for (const [key, targets] of candidates) {
      const hash = keyHash(key);
      for (const [target, agreeing] of targets) {
        // One vote per package: LibreOffice's thirty-odd domains of one language are one team's work.
        const byPackage = new Map<string, CatalogSource>();
        for (const index of [...agreeing].sort((a, b) => a - b)) if (!byPackage.has(sources[index].package)) byPackage.set(sources[index].package, sources[index]);
        rows.push({ hash, key, target, agreement: byPackage.size, provenance: JSON.stringify([...byPackage.values()]) });
        if (rows.length >= ROWS_PER_STATEMENT) await flush();
      }
    }
    await flush();
    return written;
  }

  /** The new build answers from the next statement on; the one before it is retired. */
  private async activate(runner: QueryRunner, buildId: string, languages: LanguageSummary[]): Promise<void> {
    // Statistics of the new rows first: planned without them, a lookup would read a whole language.
    await runner.query(`ANALYZE translation.catalog_entries`);
    await runner.startTransaction();
    try {
      await runner.query(`UPDATE translation.catalog_builds SET status = 'retired' WHERE status = 'active'`);
      await runner.query(`UPDATE translation.catalog_builds SET status = 'active', finished_at = now(), summary = $2 WHERE id = $1`, [buildId, JSON.stringify({ languages })]);
      await runner.commitTransaction();
    } catch (error) {
      await runner.rollbackTransaction();
      throw error;
    }
  }
}
