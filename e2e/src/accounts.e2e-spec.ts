import { randomUUID } from 'node:crypto';
import { describe, expect, it } from 'vitest';
import { runAdmin } from './admin.command';
import { stack } from './stack.config';

// The compose stack's Postgres is initialised with the C locale, whose own lower() folds ASCII only.
describe('translate-api admin: account names on the stack’s own database', () => {
  it('refuses a name that differs from a taken one only in the case of a non-ASCII letter', async () => {
    const run = randomUUID().slice(0, 8);
    const id = await runAdmin(stack.translateAdmin, ['account:create', `Öffentliche Bücherei ${run}`]);
    expect(id).toMatch(/^[0-9a-f-]{36}$/);
    for (const lookalike of [`ÖFFENTLICHE BÜCHEREI ${run.toUpperCase()}`, `öffentliche bücherei ${run}`]) {
      await expect(runAdmin(stack.translateAdmin, ['account:create', lookalike]), lookalike).rejects.toThrow(/already exists; names are compared ignoring case/);
    }
  });
});
