import { runMigrations, translationDomain } from '@platform/database';
import { buildApp, createScratchDatabase, expectOperatorMistake, runNode, type ScratchDatabase } from '@platform/testing';
import { existsSync, readdirSync } from 'node:fs';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';

/** Irish: few enough catalogs on any Debian machine for a quick build, and some on every one (coreutils, apt...). */
const LANGUAGE = 'ga';
const installed = existsSync(`/usr/share/locale/${LANGUAGE}/LC_MESSAGES`) && readdirSync(`/usr/share/locale/${LANGUAGE}/LC_MESSAGES`).some((file) => file.endsWith('.mo'));

describe.skipIf(!installed)('admin catalog:build (built translate-api, the machine\'s installed catalogs, own database)', () => {
  let scratch: ScratchDatabase;
  const admin = (...args: string[]) => runNode(['dist/apps/translate-api/main.js', 'admin', ...args], { DATABASE_URL: scratch.url });

  beforeAll(async () => {
    scratch = await createScratchDatabase('platform_catalog_cli');
    await Promise.all([buildApp('translate-api'), runMigrations(scratch.url, translationDomain)]);
  }, 180_000);
  afterAll(() => scratch?.drop());

  it('builds the languages asked for from the installed catalogs, then finds nothing to do until they change', async () => {
    const built = await admin('catalog:build', '--languages', LANGUAGE, '--dir', '/usr/share/locale');
    expect(built.code, built.stderr).toBe(0);
    expect(built.stdout).toMatch(new RegExp(`^${LANGUAGE} +\\d+ +\\d+ +\\d+ +\\d+ +\\d+ `, 'm'));
    expect(built.stdout).toMatch(/built catalog \d+: \d+ strings, \d+ translations in 1 languages/);
    const [{ id, rows, owned }] = await scratch.query<{ id: string; rows: number; owned: boolean }>(
      `SELECT b.id::text, count(e.*)::int AS rows, bool_and(e.provenance->0->>'package' <> '' AND e.provenance->0->>'licence' <> '') AS owned
       FROM translation.catalog_builds b JOIN translation.catalog_entries e ON e.build_id = b.id WHERE b.status = 'active' GROUP BY b.id`,
    );
    expect(built.lastLine).toBe(id);
    expect(rows).toBeGreaterThan(0);
    expect(owned).toBe(true);
    expect(await scratch.query(`SELECT DISTINCT target_lang FROM translation.catalog_entries`)).toEqual([{ target_lang: LANGUAGE }]);

    const again = await admin('catalog:build', '--languages', LANGUAGE, '--dir', '/usr/share/locale');
    expect(again.code, again.stderr).toBe(0);
    expect(again.stdout).toMatch(/^catalog unchanged/);
    expect(again.lastLine).toBe(id);
  }, 120_000);

  it('refuses languages it does not build, relative directories and unknown flags, touching nothing', async () => {
    const cases: [string[], RegExp][] = [
      [['--languages', 'en'], /--languages: en: catalogs are read for bg, .*English is their source/],
      [['--languages', 'de,xx'], /--languages: xx: /],
      [['--languages', ','], /--languages: none given/],
      [['--dir', 'share/locale'], /--dir takes an absolute directory/],
      [['--everything'], /Unknown option '--everything'[\s\S]*usage: admin catalog:build/],
    ];
    const runs = await Promise.all(cases.map(([args]) => admin('catalog:build', ...args)));
    runs.forEach((run, i) => expectOperatorMistake(run, cases[i][1]));
  }, 120_000);
});
