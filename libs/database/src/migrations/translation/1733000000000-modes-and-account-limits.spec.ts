import { createScratchDatabase, type ScratchDatabase } from '@platform/testing';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { translationDomain } from '../../domains';
import { revertLastMigration, runMigrations } from '../../migration-runner';
import { ModesAndAccountLimits1733000000000 } from './1733000000000-modes-and-account-limits';

const MIGRATION = new ModesAndAccountLimits1733000000000().name;

/** Rows as they were before accounts had two worlds, migrated into them. */
describe('migration ModesAndAccountLimits1733000000000', () => {
  let scratch: ScratchDatabase;

  beforeAll(async () => {
    scratch = await createScratchDatabase('platform_modes_migration');
    await runMigrations(scratch.url, translationDomain);
    const applied = async () => (await scratch.query<{ name: string }>('SELECT name FROM translation.translation_migrations')).map((r) => r.name);
    while ((await applied()).includes(MIGRATION)) await revertLastMigration(scratch.url, translationDomain, { confirmed: true });

    const account = async (name: string, ...sandboxKeys: boolean[]) => {
      const [{ id }] = await scratch.query<{ id: string }>('INSERT INTO translation.accounts (name) VALUES ($1) RETURNING id', [name]);
      const keys: string[] = [];
      for (const [i, sandbox] of sandboxKeys.entries()) {
        const [key] = await scratch.query<{ id: string }>(
          `INSERT INTO translation.api_keys (account_id, key_hash, key_hint, sandbox) VALUES ($1, $2, 'hint', $3) RETURNING id`,
          [id, `${name}-${i}`, sandbox],
        );
        keys.push(key.id);
      }
      await scratch.query(
        `INSERT INTO translation.glossaries (account_id, name, source, targets, entries, entry_count) VALUES ($1, $2, 'en', '{de}', '[{"term":"a","translations":{"de":"b"}}]', 1)`,
        [id, `${name}-glossary`],
      );
      return { id, keys };
    };
    const mixed = await account('mixed', false, true);
    await account('sandbox-only', true);
    await account('live-only', false);
    await account('no-keys');

    // Jobs from before 1732400000000 all defaulted to live, whatever key submitted them.
    for (const [job, key] of [['job_live', mixed.keys[0]], ['job_sandbox', mixed.keys[1]]]) {
      await scratch.query(
        `INSERT INTO translation.batch_jobs (id, account_id, key_id, status, target, format, tier, total, words, cost_cents)
         VALUES ($1, $2, $3, 'done', 'es', 'text', 'basic', 1, 8, 1)`,
        [job, mixed.id, key],
      );
    }
    await scratch.query(`INSERT INTO translation.webhook_endpoints (account_id, url, secret) VALUES ($1, 'https://hooks.example/live', 'whsec_x')`, [mixed.id]);
    for (const [event, job] of [['msg_live', 'job_live'], ['msg_sandbox', 'job_sandbox'], ['msg_gone', 'job_deleted']]) {
      await scratch.query(`INSERT INTO translation.webhook_events (id, account_id, type, payload) VALUES ($1, $2, 'batch.completed', $3)`, [
        event,
        mixed.id,
        { type: 'batch.completed', data: { job } },
      ]);
    }
    for (const [key, words] of [[mixed.keys[0], 100], [mixed.keys[1], 30]] as const) {
      await scratch.query(`INSERT INTO translation.key_usage (key_id, month, words, cost_cents) VALUES ($1, '2031-01', $2, 1)`, [key, words]);
    }
    expect(await runMigrations(scratch.url, translationDomain)).toContain(MIGRATION);
  });
  afterAll(() => scratch?.drop());

  it('gives each job the mode of the key that submitted it', async () => {
    expect(await scratch.query('SELECT id, sandbox FROM translation.batch_jobs ORDER BY id')).toEqual([
      { id: 'job_live', sandbox: false },
      { id: 'job_sandbox', sandbox: true },
    ]);
  });

  it('puts glossaries in the mode of their account keys, live when in doubt, with a sandbox copy for accounts of both modes', async () => {
    const rows = await scratch.query<{ name: string; sandbox: boolean }>('SELECT name, sandbox FROM translation.glossaries ORDER BY name, sandbox');
    expect(rows).toEqual([
      { name: 'live-only-glossary', sandbox: false },
      { name: 'mixed-glossary', sandbox: false },
      { name: 'mixed-glossary', sandbox: true },
      { name: 'no-keys-glossary', sandbox: false },
      { name: 'sandbox-only-glossary', sandbox: true },
    ]);
  });

  it('keeps the existing webhook endpoint with live and lets each mode have one', async () => {
    expect(await scratch.query('SELECT url, sandbox FROM translation.webhook_endpoints')).toEqual([{ url: 'https://hooks.example/live', sandbox: false }]);
    const [{ account_id: accountId }] = await scratch.query<{ account_id: string }>('SELECT account_id FROM translation.webhook_endpoints');
    await scratch.query(`INSERT INTO translation.webhook_endpoints (account_id, sandbox, url, secret) VALUES ($1, true, 'https://hooks.example/test', 'whsec_y')`, [accountId]);
    await expect(scratch.query(`INSERT INTO translation.webhook_endpoints (account_id, sandbox, url, secret) VALUES ($1, true, 'https://x', 'whsec_z')`, [accountId])).rejects.toThrow(
      /duplicate key/,
    );
  });

  it("gives events the mode of the job they announce, live when the job is gone", async () => {
    expect(await scratch.query('SELECT id, sandbox FROM translation.webhook_events ORDER BY id')).toEqual([
      { id: 'msg_gone', sandbox: false },
      { id: 'msg_live', sandbox: false },
      { id: 'msg_sandbox', sandbox: true },
    ]);
  });

  it("adds up each account's usage per mode", async () => {
    expect(await scratch.query('SELECT sandbox, month, words::int FROM translation.account_usage ORDER BY sandbox')).toEqual([
      { sandbox: false, month: '2031-01', words: 100 },
      { sandbox: true, month: '2031-01', words: 30 },
    ]);
  });
});
