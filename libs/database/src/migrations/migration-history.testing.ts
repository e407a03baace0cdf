import type { DomainDatabase } from '../data-source-options';
import { revertLastMigration } from '../migration-runner';

const newest = async (url: string, domain: DomainDatabase) => (await revertLastMigration(url, domain, { dryRun: true })).plan.migration;

/** Reverts `migration` and every later one, so that a spec can seed the data `migration` transforms. */
export async function revertThrough(url: string, domain: DomainDatabase, migration: string): Promise<void> {
  for (let name = await newest(url, domain), done = false; name && !done; name = await newest(url, domain)) {
    await revertLastMigration(url, domain, { confirmed: true });
    done = name === migration;
  }
}

/** Reverts every migration applied after `migration`, so that it is the newest; their names, oldest first, to apply again. */
export async function revertAfter(url: string, domain: DomainDatabase, migration: string): Promise<string[]> {
  const later: string[] = [];
  for (let name = await newest(url, domain); name && name !== migration; name = await newest(url, domain)) {
    await revertLastMigration(url, domain, { confirmed: true });
    later.unshift(name);
  }
  return later;
}
