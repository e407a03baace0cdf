import { dataSourceOptions, translationDomain } from '@platform/database';
import { ApiError } from '@platform/errors';
import { createTestKey, testEnv } from '@platform/testing';
import { randomUUID } from 'node:crypto';
import { DataSource } from 'typeorm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { GlossaryDraft } from './glossary-draft';
import { Glossary } from './glossary.entity';
import { GlossaryService } from './glossary.service';

describe('GlossaryService', () => {
  let dataSource: DataSource;
  let glossaries: GlossaryService;

  beforeAll(async () => {
    dataSource = new DataSource({ ...dataSourceOptions(testEnv.databaseUrl, translationDomain, 8), entities: [Glossary] });
    await dataSource.initialize();
    glossaries = new GlossaryService(dataSource.getRepository(Glossary));
  });
  afterAll(() => dataSource.destroy());

  const draft = (name: string, entries: [string, Record<string, string>][]): GlossaryDraft => ({
    name,
    source: 'en',
    entries: entries.map(([term, translations], i) => ({ at: `entries[${i}]`, term, translations })),
  });

  const refusal = (promise: Promise<unknown>) =>
    promise.then(
      () => expect.fail('the call succeeded'),
      (error: unknown) => {
        expect(error).toBeInstanceOf(ApiError);
        return error as ApiError;
      },
    );

  it('lets exactly 20 glossaries into an account when 25 are created at once', async () => {
    const mode = await createTestKey();
    const results = await Promise.allSettled(Array.from({ length: 25 }, (_, i) => glossaries.create(mode, draft(`g${i}`, [['a', { de: 'b' }]]))));
    const refused = results.flatMap((r) => (r.status === 'rejected' ? [r.reason as ApiError] : []));
    expect(results.filter((r) => r.status === 'fulfilled')).toHaveLength(20);
    expect(refused).toHaveLength(5);
    for (const error of refused) expect(error.message).toBe('An account holds at most 20 sandbox glossaries; delete one before creating another');
    expect(await glossaries.list(mode)).toHaveLength(20);
    // The live world of the same account has room of its own.
    expect(await glossaries.create({ ...mode, sandbox: false }, draft('live', [['a', { de: 'b' }]]))).toMatchObject({ sandbox: false });
  });

  it("keeps each mode's glossaries out of the other mode's reach", async () => {
    const sandbox = await createTestKey();
    const live = { accountId: sandbox.accountId, sandbox: false };
    const glossary = await glossaries.create(live, draft('live terms', [['cloud', { de: 'Wolke' }]]));
    expect((await refusal(glossaries.get(sandbox, glossary.id))).getStatus()).toBe(404);
    expect((await refusal(glossaries.termsFor(sandbox, glossary.id, 'de'))).message).toBe(`Unknown glossary "${glossary.id}"`);
    expect((await refusal(glossaries.replace(sandbox, glossary.id, draft('taken', [['a', { de: 'b' }]])))).getStatus()).toBe(404);
    expect((await refusal(glossaries.delete(sandbox, glossary.id))).getStatus()).toBe(404);
    expect(await glossaries.list(sandbox)).toEqual([]);
    expect((await glossaries.get(live, glossary.id)).name).toBe('live terms');
  });

  it('gives the terms for one target, leaving out entries without a translation into it', async () => {
    const mode = await createTestKey();
    const glossary = await glossaries.create(mode, draft('terms', [['cloud', { de: 'Wolke', fr: 'nuage' }], ['server', { fr: 'serveur' }]]));
    expect(await glossaries.termsFor(mode, glossary.id, 'de')).toEqual({ source: 'en', target: 'de', entries: [{ term: 'cloud', translation: 'Wolke' }] });
    expect((await glossaries.termsFor(mode, glossary.id, 'fr')).entries).toHaveLength(2);

    const missing = await refusal(glossaries.termsFor(mode, glossary.id, 'sv'));
    expect(missing.getStatus()).toBe(422);
    expect(missing.message).toBe(`Glossary "terms" (${glossary.id}) has no translations into "sv"; it translates into de, fr`);
  });

  it('answers 422 unsupported_language for unknown, foreign and malformed glossary ids', async () => {
    const owner = await createTestKey();
    const stranger = await createTestKey();
    const glossary = await glossaries.create(owner, draft('mine', [['a', { de: 'b' }]]));
    for (const id of [glossary.id, randomUUID(), 'not-a-uuid']) {
      const error = await refusal(glossaries.termsFor(stranger, id, 'de'));
      expect(error.getStatus()).toBe(422);
      expect(error.code).toBe('unsupported_language');
      expect(error.message).toBe(`Unknown glossary "${id}"`);
    }
  });

  it('serves a replacement and a deletion to the very next lookup', async () => {
    const mode = await createTestKey();
    const glossary = await glossaries.create(mode, draft('v1', [['cloud', { de: 'Wolke' }]]));
    const replaced = await glossaries.replace(mode, glossary.id, draft('v2', [['cloud', { de: 'Rechnerwolke' }], ['disk', { de: 'Platte' }]]));
    expect(replaced).toMatchObject({ id: glossary.id, name: 'v2', entryCount: 2, createdAt: glossary.createdAt });
    expect(replaced.updatedAt.getTime()).toBeGreaterThanOrEqual(glossary.updatedAt.getTime());
    expect((await glossaries.termsFor(mode, glossary.id, 'de')).entries).toEqual([
      { term: 'cloud', translation: 'Rechnerwolke' },
      { term: 'disk', translation: 'Platte' },
    ]);

    await glossaries.delete(mode, glossary.id);
    expect((await refusal(glossaries.termsFor(mode, glossary.id, 'de'))).getStatus()).toBe(422);
    expect((await refusal(glossaries.delete(mode, glossary.id))).getStatus()).toBe(404);
  });
});
