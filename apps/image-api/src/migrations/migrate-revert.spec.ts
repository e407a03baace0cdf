import { buildApp, createScratchDatabase, expectOperatorMistake, runCommand, testAppEnv, type ScratchDatabase } from '@platform/testing';
import { fileURLToPath } from 'node:url';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';

const root = fileURLToPath(new URL('../../../../', import.meta.url));

// Each test starts the built app two or three times: seconds each on a busy machine.
describe('operator command migrate:revert (built image-api)', { timeout: 120_000 }, () => {
  let scratch: ScratchDatabase;
  const command = (...args: string[]) =>
    runCommand(process.execPath, ['dist/apps/image-api/main.js', ...args], { cwd: root, env: { ...testAppEnv(), DATABASE_URL: scratch.url } });
  const tokensTable = async () => (await scratch.query<{ t: string | null }>(`SELECT to_regclass('image.access_tokens')::text AS t`))[0].t;

  beforeAll(async () => {
    scratch = await createScratchDatabase('platform_revert');
    await buildApp('image-api');
    expect((await command('migrate')).code).toBe(0);
    await scratch.query(`INSERT INTO image.subscriptions (plan) VALUES ('free')`);
  }, 180_000);
  afterAll(() => scratch?.drop());

  it('names the tables it would drop and changes nothing without --yes', async () => {
    const lastUse = await command('migrate:revert', '--yes');
    expect(lastUse.stdout).toContain('image: reverted TokenLastUse1734300000000, dropping column image.access_tokens.last_used_at');
    const table = await command('migrate:revert', '--yes');
    expect(table.stdout).toContain('image: reverted VariantFailures1733700000000, dropping table image.variant_failures (0 rows)');
    const column = await command('migrate:revert', '--yes');
    expect(column.stdout).toContain('image: reverted SubscriptionAccounts1733420000000, dropping column image.subscriptions.account_id');
    const refused = await command('migrate:revert');
    expectOperatorMistake(refused, /image: reverting Tokens1732500000000 would drop table image\.monthly_usage \(0 rows\), table image\.access_tokens \(0 rows\), table image\.subscriptions \(1 row\)\. Nothing was changed: run migrate:revert --yes/);
    expect(await tokensTable()).toBe('image.access_tokens');

    const dryRun = await command('migrate:revert', '--dry-run', '--yes');
    expect(dryRun.code, dryRun.stderr).toBe(0);
    expect(dryRun.stdout).toContain('would drop table image.monthly_usage (0 rows), table image.access_tokens (0 rows), table image.subscriptions (1 row); nothing was changed (dry run)');
    expect(await tokensTable()).toBe('image.access_tokens');
  });

  it('refuses an unknown flag as an operator mistake', async () => {
    expectOperatorMistake(await command('migrate:revert', '--force'), /Unknown option '--force'[\s\S]*usage: migrate:revert \[--yes\] \[--dry-run\]/);
  });

  it('reverts and says what it dropped with --yes', async () => {
    const run = await command('migrate:revert', '--yes');
    expect(run.code, run.stderr).toBe(0);
    expect(run.stdout).toContain('image: reverted Tokens1732500000000, dropping table image.monthly_usage (0 rows), table image.access_tokens (0 rows), table image.subscriptions (1 row)');
    expect(await tokensTable()).toBeNull();
    expect((await command('migrate:revert')).stdout).toContain('image: no migration is applied; nothing to revert');
  });
});
