import { dataSourceOptions, translationDomain } from '@platform/database';
import { testEnv } from '@platform/testing';
import { DataSource } from 'typeorm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { containsPattern } from './contains-pattern';

describe('containsPattern', () => {
  let dataSource: DataSource;
  beforeAll(async () => {
    dataSource = new DataSource(dataSourceOptions(testEnv.databaseUrl, translationDomain, 1));
    await dataSource.initialize();
  });
  afterAll(() => dataSource?.destroy());

  /** Whether Postgres finds the search in the text under the C collation, which folds only ASCII. */
  const found = async (text: string, search: string) =>
    (await dataSource.query(`SELECT ($1::text COLLATE "C") ~ $2 AS found, ($1::text COLLATE "C") ILIKE '%' || $3 || '%' AS ilike`, [text, containsPattern(search), search]))[0] as {
      found: boolean;
      ilike: boolean;
    };

  it('ignores the case of any letter, where ILIKE under a C locale ignores only ASCII', async () => {
    expect(await found('Datei öffnen', 'ÖFFNEN')).toEqual({ found: true, ilike: false });
    expect(await found('ΑΠΟΘΉΚΕΥΣΗ', 'αποθήκευση')).toEqual({ found: true, ilike: false });
    expect(await found('Save the file', 'SAVE')).toMatchObject({ found: true });
    expect(await found('Datei speichern', 'öffnen')).toMatchObject({ found: false });
  });

  it('takes every other character literally', async () => {
    expect(await found('Costs (in €) [net]*', '(in €) [net]*')).toMatchObject({ found: true });
    expect(await found('a.b', 'a.b')).toMatchObject({ found: true });
    expect(await found('axb', 'a.b')).toMatchObject({ found: false });
    expect(await found('100% sure', '0% s')).toMatchObject({ found: true });
    expect(await found('back\\slash ^$|?+{2}', '\\slash ^$|?+{2}')).toMatchObject({ found: true });
    expect(await found('Straße', 'STRASSE')).toMatchObject({ found: false });
    expect(await found('Straße', 'straße')).toMatchObject({ found: true });
  });
});
