import 'reflect-metadata';
import { revertCommand, runMigrations, translationDomain } from '@platform/database';
import { runService } from '@platform/service-kit';
import { runAdmin } from './admin/admin.cli';
import { ConsoleConfig } from './config/console.config';
import { serveConsole } from './console.app';

void runService(ConsoleConfig, {
  serve: serveConsole,
  // The console's tables live in the translation schema; its migrations are the translation domain's.
  migrate: async (config) => {
    const applied = await runMigrations(config.DATABASE_URL, translationDomain);
    console.log(applied.length ? `applied: ${applied.join(', ')}` : 'translation schema is up to date');
  },
  'migrate:revert': (config, args) => revertCommand(config.DATABASE_URL, translationDomain, args),
  admin: runAdmin,
});
